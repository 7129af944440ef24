import { useEffect } from 'react';
import { useUiEvent } from '../hooks/use-ui-event';
import { crossDevice, pickerOptions, thisDevice } from '../lib/devices';
import { useDeviceStore } from '../state/device-store';

// Which computer the words go to, beside the field — only when there is another one.

export function DevicePicker() {
  const devices = useDeviceStore((s) => s.devices);
  const selected = useDeviceStore((s) => s.selected);
  const select = useDeviceStore((s) => s.select);
  const refresh = useDeviceStore((s) => s.refresh);
  useEffect(() => void refresh(), [refresh]);
  useUiEvent('ui:show', () => void refresh());
  if (!crossDevice(devices)) return null;
  const here = thisDevice(devices);
  const value = selected !== null && devices.some((d) => d.id === selected) ? selected : (here?.id ?? '');
  return (
    <select
      className="device-picker"
      aria-label="Run on device"
      title="Which of your computers the words go to"
      value={value}
      onChange={(e) => {
        select(e.target.value === here?.id ? null : e.target.value);
        document.getElementById('command-input')?.focus();
      }}
    >
      {pickerOptions(devices).map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}
