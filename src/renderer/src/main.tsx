import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import './styles/theme.css';
import './styles/controls.css';
import './styles/command.css';
import './styles/results.css';
import './styles/popover.css';
import './styles/dialog.css';
import './styles/settings.css';
import './styles/agent.css';
import './styles/live.css';
import './styles/devices.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
