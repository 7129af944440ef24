// Names people use for sites whose address does not say so ("gmail" is mail.google.com).
// Keys are squashed (letters and digits only), values are hosts without "www.". The same
// names the executor's URL normaliser knows, plus a few that only matter for matching tabs.

const ALIASES = new Map<string, string[]>([
  ['gmail', ['mail.google.com']],
  ['googlemail', ['mail.google.com']],
  ['hn', ['news.ycombinator.com']],
  ['hackernews', ['news.ycombinator.com']],
  ['ycombinator', ['news.ycombinator.com', 'ycombinator.com']],
  ['yt', ['youtube.com', 'm.youtube.com', 'youtu.be']],
  ['youtube', ['youtube.com', 'm.youtube.com', 'youtu.be', 'music.youtube.com']],
  ['twitter', ['x.com', 'twitter.com']],
  ['x', ['x.com', 'twitter.com']],
  ['gh', ['github.com']],
  ['googledocs', ['docs.google.com']],
  ['gdocs', ['docs.google.com']],
  ['googlesheets', ['sheets.google.com', 'docs.google.com/spreadsheets']],
  ['googledrive', ['drive.google.com']],
  ['gdrive', ['drive.google.com']],
  ['googlecalendar', ['calendar.google.com']],
  ['gcal', ['calendar.google.com']],
  ['googlemaps', ['maps.google.com', 'google.com/maps']],
  ['googlemeet', ['meet.google.com']],
  ['meet', ['meet.google.com']],
  ['chatgpt', ['chatgpt.com', 'chat.openai.com']],
  ['claude', ['claude.ai']],
  ['fb', ['facebook.com']],
  ['ig', ['instagram.com']],
  ['insta', ['instagram.com']],
  ['so', ['stackoverflow.com']],
  ['stackoverflow', ['stackoverflow.com']],
  ['mdn', ['developer.mozilla.org']],
  ['npm', ['npmjs.com']],
  ['wiki', ['wikipedia.org']],
  ['wikipedia', ['wikipedia.org']],
  ['whatsapp', ['web.whatsapp.com']],
  ['outlook', ['outlook.live.com', 'outlook.office.com']],
  ['bbc', ['bbc.co.uk', 'bbc.com']],
  ['amazon', ['amazon.com', 'amazon.co.uk', 'amazon.de']],
  // Plain names of big sites: not needed to match their tabs (the name is the address), but
  // they tell a site name from a slip of some app's name ("reddit" with Chrome away).
  ...['reddit', 'github', 'gitlab', 'netflix', 'twitch', 'linkedin', 'facebook', 'instagram', 'tiktok', 'pinterest', 'ebay', 'etsy', 'imdb', 'medium', 'substack', 'vercel', 'netlify', 'dropbox', 'canva', 'trello', 'asana', 'jira', 'bing', 'duckduckgo', 'yahoo', 'espn', 'cnn', 'nytimes', 'theverge', 'hulu', 'airbnb', 'booking', 'tripadvisor', 'duolingo', 'weather', 'paypal', 'stripe'].map(
    (name): [string, string[]] => [name, [`${name}.com`]],
  ),
]);

/**
 * A single word that names no site DeskPilot knows ("xclock", "foo"): opening it would make up
 * "<word>.com", so the planner asks instead. Addresses and known names are not.
 */
export function isUnknownBareWord(phrase: string): boolean {
  const word = phrase.trim().toLowerCase();
  return /^[a-z0-9-]+$/.test(word) && aliasHosts(word.replace(/-/g, '')) === null && !OTHER_KNOWN_SITES.has(word);
}

// Sites people open by their bare name whose tabs need no alias to be matched (the name is in the address).
const OTHER_KNOWN_SITES = new Set([
  'google', 'figma', 'notion', 'miro', 'slack', 'discord', 'spotify', 'zoom', 'calendly', 'quora', 'vimeo', 'soundcloud',
  'tumblr', 'walmart', 'target', 'bestbuy', 'ikea', 'uber', 'expedia', 'kayak', 'yelp', 'zillow', 'craigslist', 'coursera',
  'udemy', 'leetcode', 'codepen', 'replit', 'kaggle', 'openai', 'anthropic', 'producthunt', 'bitbucket', 'atlassian',
  'salesforce', 'hubspot', 'shopify', 'squarespace', 'wix', 'wordpress', 'cloudflare', 'digitalocean', 'heroku', 'docker',
  'apple', 'microsoft', 'office', 'linear', 'loom', 'zendesk', 'intercom', 'mailchimp', 'grammarly', 'deepl', 'wolframalpha',
]);

/** Every name with hosts of its own ("gmail", "hn", "reddit"), for telling a slip in one. */
export const knownSiteNames = (): Iterable<string> => ALIASES.keys();

/** Hosts (without "www.") a site name stands for, or null when it is no known alias. */
export function aliasHosts(name: string): string[] | null {
  return ALIASES.get(name) ?? null;
}
