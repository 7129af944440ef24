import { useEffect } from 'react';
import { BackIcon } from '../components/icons';
import { ApiKeySetting } from '../components/settings/api-key-setting';
import { CheckSetting } from '../components/settings/check-setting';
import { HotkeySetting } from '../components/settings/hotkey-setting';
import { ModeSetting } from '../components/settings/mode-setting';
import { TextSetting } from '../components/settings/text-setting';
import { useUiEvent } from '../hooks/use-ui-event';
import { buildPatch, isEmptyPatch } from '../lib/settings-draft';
import { useAnnouncer } from '../state/announcer-store';
import { useSettingsStore } from '../state/settings-store';
import { useStatusStore } from '../state/status-store';

// Every setting on one page. Save sends only what changed; main's verdict decides
// whether it says "Saved" or shows what is wrong next to each field.

export function SettingsView({ onBack }: { onBack?: () => void }) {
  const { saved, draft, loadError, save, errors, load, submit, revert } = useSettingsStore();
  const refreshStatus = useStatusStore((s) => s.refresh);

  useEffect(() => {
    void load();
    void refreshStatus();
  }, [load, refreshStatus]);
  useUiEvent('ui:show', () => void refreshStatus());

  // Inside the popover, Esc goes back to it.
  useEffect(() => {
    if (!onBack) return;
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape' && !e.defaultPrevented) {
        e.preventDefault();
        onBack();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onBack]);

  useEffect(() => {
    if (save === 'saved') void refreshStatus();
    if (save === 'saved') useAnnouncer.getState().say('Settings saved.');
    if (save === 'failed') useAnnouncer.getState().say('Settings not saved. Fix the fields marked.');
  }, [save, refreshStatus]);

  const dirty = draft && saved ? !isEmptyPatch(buildPatch(draft, saved)) : false;
  const fieldErrorCount = Object.keys(errors.fields).length;

  return (
    <main className="settings">
      <header className="settings-header">
        {onBack && (
          <button type="button" className="icon-button" aria-label="Back" title="Back" onClick={onBack}>
            <BackIcon />
          </button>
        )}
        <h1>Settings</h1>
      </header>

      {!draft ? (
        <div className="settings-loading">
          {loadError ? (
            <>
              <p className="note note-fail" role="alert">
                Settings could not be loaded: {loadError}
              </p>
              <button type="button" className="button" onClick={() => void load()}>
                Try again
              </button>
            </>
          ) : (
            <p className="hint">Loading…</p>
          )}
        </div>
      ) : (
        <form
          className="settings-form"
          noValidate
          aria-label="Settings"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <fieldset className="group">
            <legend>Language model</legend>
            <p className="group-hint">Optional. The offline matcher handles everyday phrasings; an LLM understands the rest.</p>
            <TextSetting field="llm.base_url" label="Server URL" name="LLM base URL" type="url" placeholder="https://api.openai.com/v1" hint="Any OpenAI-compatible server, e.g. http://localhost:11434/v1 for Ollama." />
            <TextSetting field="llm.model" label="Model" name="LLM model" placeholder="gpt-4o-mini" hint="Empty: offline matcher only." />
            <ModeSetting />
            <ApiKeySetting />
          </fieldset>

          <fieldset className="group">
            <legend>Chrome</legend>
            <TextSetting field="chrome.url" label="DevTools URL" name="Chrome DevTools URL" placeholder="http://127.0.0.1:9222" hint="Empty: find a running Chrome, or the one DeskPilot launches." />
          </fieldset>

          <fieldset className="group">
            <legend>Hotkeys</legend>
            <p className="group-hint">Click a field and press the keys, or type them, e.g. CommandOrControl+Shift+Space.</p>
            <HotkeySetting field="hotkeys.launcher" which="launcher" label="Launcher" name="Launcher hotkey" />
            <HotkeySetting field="hotkeys.voice" which="voice" label="Push to talk" name="Voice hotkey" />
          </fieldset>

          <fieldset className="group">
            <legend>Safety</legend>
            <CheckSetting field="confirm.close_tab" label="Confirm before closing tabs" />
            <CheckSetting field="confirm.close_app" label="Confirm before closing apps" />
          </fieldset>

          <fieldset className="group">
            <legend>Voice</legend>
            <CheckSetting field="voice.enabled" label="Voice commands" hint="Shows a mic button and turns on the push-to-talk hotkey." />
            <TextSetting field="voice.base_url" label="Server URL" name="Transcription base URL" type="url" placeholder="https://api.openai.com/v1" hint="An OpenAI-compatible transcription server." />
            <TextSetting field="voice.model" label="Model" name="Transcription model" placeholder="whisper-1" />
          </fieldset>

          <fieldset className="group">
            <legend>General</legend>
            <CheckSetting field="launch_at_login" label="Launch at login" />
          </fieldset>

          <div className="settings-footer">
            <div className="save-state">
              {save === 'saved' && !dirty && (
                <p className="note note-ok" role="status">
                  Saved
                </p>
              )}
              {save === 'failed' && (
                <div className="note note-fail" role="alert">
                  <p>Not saved. {fieldErrorCount > 0 ? `Fix the field${fieldErrorCount > 1 ? 's' : ''} marked above.` : ''}</p>
                  {errors.general.length > 0 && (
                    <ul className="general-errors">
                      {errors.general.map((m, i) => (
                        <li key={i}>{m}</li>
                      ))}
                    </ul>
                  )}
                </div>
              )}
            </div>
            <button type="button" className="button" onClick={revert} disabled={!dirty || save === 'saving'}>
              Revert
            </button>
            <button type="submit" className="button button-primary" disabled={!dirty || save === 'saving'}>
              {save === 'saving' ? 'Saving…' : 'Save'}
            </button>
          </div>
        </form>
      )}
    </main>
  );
}
