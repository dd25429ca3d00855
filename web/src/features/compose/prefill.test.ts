import { describe, expect, it } from 'vitest';
import type { OutboxMail } from '../../api/outgoing';
import { addressIn, fromMail, fromParams, mailFromState, textToHtml, withRe } from './prefill';

const params = (q: Record<string, string>) => new URLSearchParams(q);

describe('compose prefill from query parameters (spec 000 §2)', () => {
  it('a reply from the inbox: address in replyTo, name in replyFrom', () => {
    const init = fromParams(
      params({ replyTo: 'dana@example.test', replyFrom: 'דנה כהן', replySubject: 'פגישה מחר', originalMessageId: '<m1@example.test>' }),
    );
    expect(init.to).toEqual(['dana@example.test']);
    expect(init.subject).toBe('Re: פגישה מחר');
    expect(init.replySubject).toBe('פגישה מחר');
    expect(init.reply).toEqual({ originalMessageId: '<m1@example.test>' });
    expect(init.bodyHtml).toBe('');
  });

  it('a smart reply: address in replyFrom, text in reply', () => {
    const init = fromParams(params({ replyFrom: 'Yossi <yossi@example.test>', replySubject: 'RE: offer', reply: 'תודה!\nנדבר.' }));
    expect(init.to).toEqual(['yossi@example.test']);
    // Already prefixed (any case): not prefixed again.
    expect(init.subject).toBe('RE: offer');
    expect(init.bodyHtml).toBe('<p>תודה!<br>נדבר.</p>');
  });

  it('the body comes from aiReply, reply, suggestion or content, first one wins', () => {
    expect(fromParams(params({ aiReply: 'a', reply: 'b' })).bodyHtml).toBe('<p>a</p>');
    expect(fromParams(params({ suggestion: 's' })).bodyHtml).toBe('<p>s</p>');
    expect(fromParams(params({ content: 'c' })).bodyHtml).toBe('<p>c</p>');
    expect(fromParams(params({ aiReply: '  ', content: 'c' })).bodyHtml).toBe('<p>c</p>');
  });

  it('without a subject, a replyTo that is not an address becomes the subject', () => {
    const init = fromParams(params({ replyTo: 'הצעת מחיר' }));
    expect(init.subject).toBe('Re: הצעת מחיר');
    expect(init.to).toEqual([]);
  });

  it('a local mail id (no Message-ID) goes as originalId', () => {
    expect(fromParams(params({ originalMessageId: '42' })).reply).toEqual({ originalId: '42' });
  });

  it('nothing given: an empty mail of medium priority', () => {
    const init = fromParams(params({}));
    expect(init).toMatchObject({ to: [], cc: [], bcc: [], subject: '', bodyHtml: '', priority: 'medium', attachments: [] });
  });
});

describe('helpers', () => {
  it('withRe', () => {
    expect(withRe('x')).toBe('Re: x');
    expect(withRe('re: x')).toBe('re: x');
    expect(withRe('Re:x')).toBe('Re:x');
    expect(withRe('  ')).toBe('');
  });

  it('addressIn', () => {
    expect(addressIn('a@b.co')).toBe('a@b.co');
    expect(addressIn('Name <a@b.co>')).toBe('a@b.co');
    expect(addressIn('דנה כהן')).toBe('');
    expect(addressIn('a@b')).toBe('');
  });

  it('textToHtml escapes and makes paragraphs', () => {
    expect(textToHtml('<b>hi</b> & "you"\n\nsecond\r\nline')).toBe(
      '<p>&lt;b&gt;hi&lt;/b&gt; &amp; &quot;you&quot;</p><p>second<br>line</p>',
    );
  });
});

describe('prefill from a mail given back by undo send', () => {
  const mail: OutboxMail = {
    to: ['a@example.test'],
    cc: ['c@example.test'],
    bcc: [],
    subject: 'שלום',
    body: '<p dir="rtl">גוף</p>',
    priority: 'urgent',
    from_name: '',
    inReplyTo: null,
    originalMessageId: '<o@example.test>',
    references: [],
    originalId: null,
    attachments: [{ id: 'up1', name: 'דוח.pdf', size: 2048, contentType: 'application/pdf' }],
    snoozed_until: null,
  };

  it('keeps everything, attachments by their upload ids', () => {
    const init = fromMail(mail);
    expect(init).toMatchObject({
      to: ['a@example.test'],
      cc: ['c@example.test'],
      subject: 'שלום',
      bodyHtml: '<p dir="rtl">גוף</p>',
      priority: 'urgent',
      reply: { originalMessageId: '<o@example.test>' },
    });
    expect(init.attachments.map((a) => a.id)).toEqual(['up1']);
  });

  it('location.state is checked before use', () => {
    expect(mailFromState({ mail })).toBe(mail);
    expect(mailFromState(null)).toBeNull();
    expect(mailFromState({ mail: 'x' })).toBeNull();
    expect(mailFromState({ other: 1 })).toBeNull();
  });
});
