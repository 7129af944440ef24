import type { ClauseContext } from '../clause-context';
import { askWhichPreset } from '../choices';
import { noPreset } from '../messages';
import { matchPreset, presetsWithWord } from '../preset-matcher';
import { ask, CONFIDENCE, ok, type ClauseResult } from '../result';

// Presets by name: "code space", "activate focus mode", "switch to writing mode", "meeting
// setup", "apply the coding layout". A clause that says it is about a layout ("… mode",
// "… preset", "activate …") may match a preset with a slip; without such a word only the
// exact name counts, so that "switch to reddit" is never read as a preset.

const LAYOUT_SUFFIX = /\s+(?:preset|layout|mode|setup|set up|workspace|arrangement|profile)$/;
const VERB = /^(activate|apply|load|use|enable|turn on|set up|setup|restore|switch to|switch into|switch over to|go to|go into|change to|start|run|enter|open|get into|trigger|launch)\s+(.+)$/;
const PRESET_VERBS = new Set(['activate', 'apply', 'load', 'enable', 'turn on', 'restore', 'enter', 'trigger']);

// "let's do some writing", "time for a meeting": only ever the exact name of a preset.
const ACTIVITY = /^(?:do some|do a bit of|doing some|time for(?: some| a)?|time to do(?: some)?|get some|get into|back to)\s+(.+)$/;

export function presetRule(clause: string, ctx: ClauseContext): ClauseResult | null {
  const activity = ACTIVITY.exec(clause);
  if (activity) {
    const found = matchPreset(activity[1]!, ctx.snap.presets, false);
    if (found.kind === 'one') return ok({ type: 'activate_preset', preset_name: found.name });
  }
  const m = VERB.exec(clause);
  const phrase = (m ? m[2]! : clause).replace(/^(?:the|my)\s+/, '');
  const saysLayout = LAYOUT_SUFFIX.test(phrase) || /^(?:preset|layout)\s+/.test(phrase);
  const presetVerb = m !== null && PRESET_VERBS.has(m[1]!);
  const name = phrase.replace(/^(?:preset|layout)\s+/, '');
  const found = matchPreset(name, ctx.snap.presets, saysLayout || presetVerb);
  if (found.kind === 'one') return ok({ type: 'activate_preset', preset_name: found.name });
  if (found.kind === 'many') return askWhichPreset(found.names);
  // "review mode": "mode" says a preset, and one preset's name holds the word ("Code Review").
  const partial = saysLayout ? presetsWithWord(name.replace(LAYOUT_SUFFIX, ''), ctx.snap.presets) : [];
  if (partial.length === 1) return ok({ type: 'activate_preset', preset_name: partial[0]! });
  // "activate slack" may still be an app; "writing mode" with no such preset is a preset question.
  if (saysLayout && (m === null || presetVerb || /^(?:switch|go|change|start|use|enter|get)/.test(m[1]!))) {
    return ask(noPreset(name.replace(LAYOUT_SUFFIX, ''), ctx.snap.presets), CONFIDENCE.noMatch);
  }
  return null;
}
