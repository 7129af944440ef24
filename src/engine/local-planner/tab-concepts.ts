// Nouns people use for a kind of page rather than for a site: "the reddit thread", "the
// youtube video", "my dotfiles repo", "the planning doc", "the booking confirmation email".
// Such a word never has to appear in the tab; when the tab is of a site that word describes,
// it counts in the tab's favour ("the next.js repo" is the GitHub tab, not nextjs.org).

export interface ConceptTab {
  host: string;
  path: string;
  words: ReadonlySet<string>;
  /** Whether the phrase named this tab's own site ("zod" for zod.dev): its docs are that site. */
  ownSite: boolean;
}

const onHost = (t: ConceptTab, ...hosts: string[]) => hosts.some((h) => t.host === h || t.host.endsWith(`.${h}`));

const THREAD = (t: ConceptTab) => onHost(t, 'reddit.com', 'news.ycombinator.com', 'lobste.rs', 'discourse.org');
const VIDEO = (t: ConceptTab) => onHost(t, 'youtube.com', 'youtu.be', 'twitch.tv', 'vimeo.com');
const REPO = (t: ConceptTab) => onHost(t, 'github.com', 'gitlab.com', 'bitbucket.org', 'codeberg.org');
const TICKET = (t: ConceptTab) => onHost(t, 'atlassian.net', 'linear.app', 'youtrack.cloud') || /\/issues?\b/.test(t.path);
const DOC = (t: ConceptTab) => t.ownSite || t.host.startsWith('docs.') || /\/docs?\b|\/documentation\b/.test(t.path) || t.words.has('doc');
const SHEET = (t: ConceptTab) => onHost(t, 'sheets.google.com') || /\/spreadsheets\b/.test(t.path) || t.words.has('sheet');
const MAIL = (t: ConceptTab) => onHost(t, 'mail.google.com', 'outlook.live.com', 'outlook.office.com', 'mail.yahoo.com', 'proton.me', 'fastmail.com');
const ARTICLE = (t: ConceptTab) => onHost(t, 'wikipedia.org', 'medium.com', 'substack.com');
const CALENDAR = (t: ConceptTab) => onHost(t, 'calendar.google.com') || /\/calendar\b/.test(t.path);
const CHAT = (t: ConceptTab) => onHost(t, 'chatgpt.com', 'chat.openai.com', 'claude.ai', 'gemini.google.com');
const MAP = (t: ConceptTab) => onHost(t, 'maps.google.com') || /^\/maps\b/.test(t.path);
const SEARCH = (t: ConceptTab) => /^\/search\b/.test(t.path);
const LOCAL = (t: ConceptTab) => t.host === 'localhost' || t.host === '127.0.0.1' || t.host.endsWith('.localhost');
const MEETING = (t: ConceptTab) => onHost(t, 'meet.google.com', 'zoom.us', 'teams.microsoft.com');
const MUSIC = (t: ConceptTab) => onHost(t, 'open.spotify.com', 'music.youtube.com', 'soundcloud.com', 'music.apple.com');
const TWEET = (t: ConceptTab) => onHost(t, 'x.com', 'twitter.com', 'bsky.app');
const PAPER = (t: ConceptTab) => onHost(t, 'arxiv.org', 'openreview.net', 'semanticscholar.org', 'dl.acm.org', 'ieeexplore.ieee.org', 'papers.nips.cc', 'aclanthology.org') || /\.pdf$/.test(t.path);
const RECIPE = (t: ConceptTab) =>
  onHost(t, 'allrecipes.com', 'bbcgoodfood.com', 'budgetbytes.com', 'minimalistbaker.com', 'seriouseats.com', 'bonappetit.com', 'cooking.nytimes.com', 'epicurious.com', 'food52.com', 'simplyrecipes.com', 'delish.com', 'tasty.co') ||
  /\/recipes?\b/.test(t.path);
// A "file" is whatever people keep documents in: docs, sheets, designs, drives.
const FILE = (t: ConceptTab) => DOC(t) || SHEET(t) || onHost(t, 'figma.com', 'drive.google.com', 'dropbox.com', 'notion.so', 'miro.com', 'canva.com') || /\.[a-z0-9]{2,4}$/.test(t.path);

/** Keys are stems (see stem()). */
const CONCEPTS = new Map<string, (t: ConceptTab) => boolean>([
  ['thread', THREAD], ['post', THREAD], ['discussion', THREAD], ['comment', THREAD],
  ['video', VIDEO], ['stream', VIDEO], ['livestream', VIDEO], ['clip', VIDEO],
  ['repo', REPO], ['repository', REPO],
  ['ticket', TICKET], ['issue', TICKET], ['bug', TICKET],
  ['doc', DOC], ['document', DOC], ['documentation', DOC],
  ['spreadsheet', SHEET], ['sheet', SHEET],
  ['email', MAIL], ['mail', MAIL], ['inbox', MAIL], ['e-mail', MAIL],
  ['article', ARTICLE], ['wiki', ARTICLE], ['entry', ARTICLE],
  ['calendar', CALENDAR],
  ['chat', CHAT], ['conversation', CHAT],
  ['map', MAP], ['directions', MAP],
  ['search', SEARCH], ['result', SEARCH],
  ['server', LOCAL], ['dev server', LOCAL],
  ['meeting', MEETING], ['call', MEETING],
  ['playlist', MUSIC], ['music', MUSIC], ['song', MUSIC],
  ['tweet', TWEET],
  ['recipe', RECIPE],
  ['paper', PAPER], ['pdf', PAPER], ['preprint', PAPER],
  ['file', FILE], ['design', FILE], ['mockup', FILE], ['board', FILE], ['slide', FILE], ['deck', FILE],
]);

export const conceptOf = (stemmed: string) => CONCEPTS.get(stemmed) ?? null;

/** "issues" → "issue", "docs" → "doc"; "class", "news" → unchanged / "new" on both sides alike. */
export const stem = (w: string) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);
