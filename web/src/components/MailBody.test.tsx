import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FRAME_SANDBOX, MailBody, frameDocument, framePolicy, frameTheme, hasOwnColors } from './MailBody';

describe('MailBody', () => {
  it('shows the body in a sandboxed frame without scripts or same-origin', () => {
    render(<MailBody html="<p>שלום</p>" title="גוף ההודעה" />);
    const frame = screen.getByTitle('גוף ההודעה');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('data-testid', 'mail-body-frame');
    expect(frame).toHaveAttribute('sandbox', FRAME_SANDBOX);
    expect(FRAME_SANDBOX).not.toContain('allow-scripts');
    expect(FRAME_SANDBOX).not.toContain('allow-same-origin');
    expect(frame).toHaveAttribute('referrerpolicy', 'no-referrer');
    expect(frame.getAttribute('srcdoc')).toContain('<body><p>שלום</p></body>');
  });

  it('links the frame stylesheet and sends no referrer from inside', () => {
    const doc = frameDocument('<b>x</b>');
    expect(doc).toMatch(/^<!doctype html>/);
    expect(doc).toContain('<meta name="referrer" content="no-referrer">');
    expect(doc).toMatch(/<link rel="stylesheet" href="[^"]*mail-frame\.css">/);
    expect(doc).not.toContain('<style');
  });
});

describe("the frame's own Content-Security-Policy", () => {
  it('loads nothing from the network while remote content is blocked', () => {
    const p = framePolicy('http://mail.lan:8080', false);
    expect(p).toContain("default-src 'none'");
    expect(p).toContain('img-src http://mail.lan:8080 data: blob:;');
    expect(p).not.toMatch(/https:|http: /);
    for (const d of ['font-src', 'media-src', 'object-src', 'frame-src', 'connect-src', 'form-action']) {
      expect(p).toContain(`${d} 'none'`);
    }
    expect(p).toContain('style-src http://mail.lan:8080;');
  });

  it('lets in remote images, and only images, when the user shows them', () => {
    const p = framePolicy('http://mail.lan:8080', true);
    expect(p).toContain('img-src http://mail.lan:8080 data: blob: https: http:;');
    expect(p).toContain("font-src 'none'");
    expect(p).toContain("media-src 'none'");
  });

  it('comes first in the head, before anything that loads', () => {
    const doc = frameDocument('<img src="https://tracker.example/p.gif">');
    expect(doc).toMatch(/^<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src [^"]* data: blob:;/);
    expect(doc.indexOf('http-equiv')).toBeLessThan(doc.indexOf('<link'));
    expect(frameDocument('<p>x</p>', 'light', true)).toContain('blob: https: http:;');
  });
});

describe('the mail frame in the dark theme', () => {
  it('goes dark only for a mail without colours or images of its own', () => {
    expect(hasOwnColors('<p>שלום</p>')).toBe(false);
    expect(hasOwnColors('<p style="color: red">x</p>')).toBe(true);
    expect(hasOwnColors('<table bgcolor="#fff"><tr><td>x</td></tr></table>')).toBe(true);
    expect(hasOwnColors('<p style="background-color:#000">x</p>')).toBe(true);
    expect(hasOwnColors('<img src="cid:1">')).toBe(true);
    // Text that talks about colours is not a colour.
    expect(hasOwnColors('<p>color: red; background: blue</p>')).toBe(false);
    expect(frameTheme('<p>x</p>', 'dark')).toBe('dark');
    expect(frameTheme('<p style="color:#333">x</p>', 'dark')).toBe('light');
    expect(frameTheme('<p>x</p>', 'light')).toBe('light');
    expect(frameDocument('<p>x</p>', 'dark')).toContain('<html class="dark">');
    expect(frameDocument('<p>x</p>')).toContain('<!doctype html><html><head>');
  });

  it('follows the app theme as it changes', async () => {
    render(<MailBody html="<p>שלום</p>" title="גוף" />);
    const frame = screen.getByTitle('גוף');
    expect(frame.getAttribute('srcdoc')).not.toContain('class="dark"');
    await act(async () => {
      document.documentElement.dataset.theme = 'dark';
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(frame.getAttribute('srcdoc')).toContain('<html class="dark">');
    expect(frame).toHaveClass('mail-body--dark');
    await act(async () => {
      delete document.documentElement.dataset.theme;
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(frame.getAttribute('srcdoc')).not.toContain('class="dark"');
  });
});
