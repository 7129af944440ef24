// Intentionally empty. DeskPilot attaches to this service worker over Chrome's DevTools
// connection and calls chrome.tabs / chrome.tabGroups here itself; the extension holds no
// logic, listens to nothing, and has no content scripts and no host permissions.
