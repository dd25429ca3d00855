// The live notices' wording and the new-mail announcement, as the preferences ask.

import { describe, expect, it, vi } from 'vitest';
import { announceSendFailed } from './attention';
import { announceNewMail } from './newMail';
import { spamNoticeText } from './spamDetected';

describe('live notices', () => {
  it('new mail is announced as the preferences say', () => {
    const toast = { info: vi.fn() };
    const off = { emailNotifications: false, desktopNotifications: false, soundNotifications: false };
    expect(announceNewMail(3, off, toast, 'דואר נכנס')).toEqual({ toast: false, desktop: false, sound: false });
    expect(toast.info).not.toHaveBeenCalled();
    expect(announceNewMail(3, { ...off, emailNotifications: true }, toast, 'דואר נכנס').toast).toBe(true);
    expect(toast.info).toHaveBeenCalledWith('3 מיילים חדשים בדואר נכנס');
  });

  it('words the spam_detected notice with the server\'s message, the sender and the subject', () => {
    expect(
      spamNoticeText({ id: 7, from: 'x@bad.example', fromName: 'בנק', subject: 'חשבונך הוקפא', score: 9, message: 'מייל זוהה כספאם והועבר לספאם' }),
    ).toBe('מייל זוהה כספאם והועבר לספאם: בנק — חשבונך הוקפא');
    expect(spamNoticeText({ id: 8, from: 'x@bad.example', fromName: '', subject: '', score: null, message: '' })).toBe('זוהה ספאם: x@bad.example — (ללא נושא)');
  });

  it('a scheduled mail that failed is an error toast with the reason and the subject', () => {
    const toast = { error: vi.fn() };
    const notice = { id: '4', subject: 'הזמנה לאירוע', to: ['a@b.example'], message: 'שרת הדואר דחה את השליחה', retrying: true };
    announceSendFailed(notice, { desktopNotifications: false }, toast);
    expect(toast.error).toHaveBeenCalledWith('שרת הדואר דחה את השליחה: הזמנה לאירוע');
  });
});
