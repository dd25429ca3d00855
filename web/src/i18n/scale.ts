// The Hebrew strings of scale (split from he.ts, which holds the shell's and the inbox's, so the
// inbox's first chunk does not carry them; issue 42). The same rules as he.ts.

export const heScale = {
  button: 'גודל תצוגה',
  title: 'גודל תצוגה',
  presets: {
    compact: 'צפוף',
    normal: 'רגיל',
    comfortable: 'נוח',
    large: 'גדול',
    reset: 'איפוס',
  },
} as const;
