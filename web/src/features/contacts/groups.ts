// A contact's groups as the form edits them: one comma-separated line (spec 001: "groups"), read
// back into the list the server stores — trimmed, blanks dropped, each group once. A card shows
// the first SHOWN_GROUPS as badges and counts the rest in a '+N' badge.

/** Spec 001 "Contacts page": "up to 2 group badges plus a +N badge". */
export const SHOWN_GROUPS = 2;

/** `'עבודה, משפחה,,עבודה '` → `['עבודה', 'משפחה']`. A Hebrew or Arabic comma counts too. */
export function parseGroups(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(/[,،;]/)) {
    const g = part.trim();
    if (g && !out.includes(g)) out.push(g);
  }
  return out;
}

export function groupsText(groups: readonly string[]): string {
  return groups.join(', ');
}

/** The badges a card shows and how many more there are. */
export function splitGroups(groups: readonly string[]): { shown: string[]; rest: string[] } {
  return { shown: groups.slice(0, SHOWN_GROUPS), rest: groups.slice(SHOWN_GROUPS) };
}
