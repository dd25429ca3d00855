import { describe, expect, it } from 'vitest';
import { he } from '../i18n/he';
import { formatSize } from './size';

describe('formatSize', () => {
  it('uses whole units, with one decimal below 10', () => {
    expect(formatSize(512, he.mail.sizeUnits)).toBe('512 בתים');
    expect(formatSize(12 * 1024 + 300, he.mail.sizeUnits)).toBe('12 KB');
    expect(formatSize(2_400_000, he.mail.sizeUnits)).toBe('2.3 MB');
    expect(formatSize(0, he.mail.sizeUnits)).toBe('0 בתים');
  });
});
