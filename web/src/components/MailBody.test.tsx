import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FRAME_SANDBOX, MailBody, frameDocument } from './MailBody';

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
