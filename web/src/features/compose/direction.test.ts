import { describe, expect, it } from 'vitest';
import { subjectDirection } from './direction';

describe('subject direction', () => {
  it('a Hebrew subject behind Re: reads right-to-left', () => {
    expect(subjectDirection('Re: פגישת צוות')).toBe('rtl');
    expect(subjectDirection('RE: Fwd: הצעה')).toBe('rtl');
  });

  it('an English subject reads left-to-right, an empty one follows the interface', () => {
    expect(subjectDirection('Re: Meeting')).toBe('ltr');
    expect(subjectDirection('2026 budget')).toBe('ltr');
    expect(subjectDirection('')).toBe('rtl');
    expect(subjectDirection('Re: ')).toBe('rtl');
  });
});
