// Small line icons drawn in currentColor; decorative (the buttons carry the labels).

interface IconProps {
  size?: number;
}

const base = (size: number) => ({
  width: size,
  height: size,
  viewBox: '0 0 16 16',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.5,
  strokeLinecap: 'round' as const,
  strokeLinejoin: 'round' as const,
  'aria-hidden': true,
  focusable: false,
});

export const GearIcon = ({ size = 16 }: IconProps) => (
  <svg {...base(size)}>
    <circle cx="8" cy="8" r="2.1" />
    <path d="M8 1.6v1.6M8 12.8v1.6M1.6 8h1.6M12.8 8h1.6M3.5 3.5l1.1 1.1M11.4 11.4l1.1 1.1M3.5 12.5l1.1-1.1M11.4 4.6l1.1-1.1" />
    <circle cx="8" cy="8" r="4.6" />
  </svg>
);

export const MicIcon = ({ size = 16 }: IconProps) => (
  <svg {...base(size)}>
    <rect x="5.75" y="1.75" width="4.5" height="8" rx="2.25" />
    <path d="M3.5 7.5a4.5 4.5 0 0 0 9 0M8 12v2.25" />
  </svg>
);

export const ReturnIcon = ({ size = 16 }: IconProps) => (
  <svg {...base(size)}>
    <path d="M12.5 3.5v4a2 2 0 0 1-2 2h-7M6 6.5l-3 3 3 3" />
  </svg>
);

export const SparkIcon = ({ size = 16 }: IconProps) => (
  <svg {...base(size)}>
    <path d="M8 1.75l1.3 3.6 3.7 1.3-3.7 1.3L8 11.6 6.7 7.95 3 6.65l3.7-1.3zM12.75 10.75l.55 1.45 1.45.55-1.45.55-.55 1.45-.55-1.45-1.45-.55 1.45-.55z" />
  </svg>
);

export const BackIcon = ({ size = 16 }: IconProps) => (
  <svg {...base(size)}>
    <path d="M10 3.5L5.5 8l4.5 4.5" />
  </svg>
);

export const TrashIcon = ({ size = 14 }: IconProps) => (
  <svg {...base(size)}>
    <path d="M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.6 8.5h5.8l.6-8.5" />
  </svg>
);

export const PlusIcon = ({ size = 14 }: IconProps) => (
  <svg {...base(size)}>
    <path d="M8 3.5v9M3.5 8h9" />
  </svg>
);

export const WarnIcon = ({ size = 14 }: IconProps) => (
  <svg {...base(size)}>
    <path d="M8 2.2l6.2 11H1.8zM8 6.5v3M8 11.4v.1" />
  </svg>
);

/** Agent mode: a pointer that acts on pages. */
export const AgentIcon = ({ size = 16 }: IconProps) => (
  <svg {...base(size)}>
    <path d="M3.25 2.75l8.5 3.9-3.6 1.25-1.3 3.6z" />
    <path d="M8.4 8.15l3.6 3.6" />
    <path d="M13 1.75v2.5M11.75 3h2.5" />
  </svg>
);

export const StopIcon = ({ size = 12 }: IconProps) => (
  <svg {...base(size)}>
    <rect x="3.5" y="3.5" width="9" height="9" rx="1.5" fill="currentColor" stroke="none" />
  </svg>
);

/** A window: running and installed apps in the launcher's list. */
export const WindowIcon = ({ size = 16 }: IconProps) => (
  <svg {...base(size)}>
    <rect x="2" y="3" width="12" height="10" rx="1.75" />
    <path d="M2 6h12M4.25 4.5h.01M6 4.5h.01" />
  </svg>
);

/** A layout of windows: presets in the launcher's list. */
export const LayoutIcon = ({ size = 16 }: IconProps) => (
  <svg {...base(size)}>
    <rect x="2" y="3" width="12" height="10" rx="1.75" />
    <path d="M8 3v10M8 8h6" />
  </svg>
);

/** A pin: a pinned tab. */
export const PinIcon = ({ size = 12 }: IconProps) => (
  <svg {...base(size)}>
    <path d="M6 2.5h4M7 2.5v4L4.5 9h7L9 6.5v-4M8 9v4.5" />
  </svg>
);
