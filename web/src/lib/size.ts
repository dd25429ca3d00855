// Sizes of files for people, in the units the caller passes (he.mail.sizeUnits).

/** 512 בתים, 12 KB, 3.4 MB: whole numbers, one decimal below 10 of a unit. */
export function formatSize(bytes: number, units: readonly string[]): string {
  let n = Math.max(0, bytes);
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  const value = i === 0 || n >= 10 ? Math.round(n) : Math.round(n * 10) / 10;
  return `${value} ${units[i]}`;
}
