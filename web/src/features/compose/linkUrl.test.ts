import { describe, expect, it } from 'vitest';
import { safeLinkUrl } from './linkUrl';

describe('link addresses', () => {
  it('accepts web and mail links', () => {
    expect(safeLinkUrl('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeLinkUrl(' http://example.com ')).toBe('http://example.com/');
    expect(safeLinkUrl('mailto:dana@example.test')).toBe('mailto:dana@example.test');
    expect(safeLinkUrl('www.example.com')).toBe('https://www.example.com/');
  });

  it('refuses everything else', () => {
    expect(safeLinkUrl('javascript:alert(1)')).toBeNull();
    expect(safeLinkUrl('data:text/html,x')).toBeNull();
    expect(safeLinkUrl('example.com')).toBeNull();
    expect(safeLinkUrl('')).toBeNull();
    expect(safeLinkUrl('https://')).toBeNull();
  });
});
