// Agent mode's in-page browser: snapshots with numbered elements and in-tab commands over CDP.
export { createCdpAgentBrowser, type CdpAgentBrowser, type CdpAgentBrowserOptions } from './cdp-agent-browser';
export { DEFAULT_TIMINGS, type TabTimings } from './agent-tab';
