// A plain Hebrew mail to user1 as the suites deliver it (RFC 2047 names and subject, UTF-8 body),
// and the wait until the sync has stored it in the inbox.
import { eventually } from './session.mjs';

const b64 = (s) => `=?UTF-8?B?${Buffer.from(s).toString('base64')}?=`;

/** A plain Hebrew mail from `from` (name, address) to user1; `extra` header lines. */
export function hebrewMail({ from, subject, body, id, extra = [] }) {
  return [
    `From: ${b64(from[0])} <${from[1]}>`,
    'To: user1@example.test',
    `Subject: ${b64(subject)}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${id}@example.test>`,
    ...extra,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    body,
    '',
  ].join('\n');
}

/** The inbox's mail with `subject` (through `api`, a jsonApi), once the sync has stored it. */
export const storedInInbox = (api, subject) =>
  eventually(`"${subject}" stored`, async () => {
    const r = await api('GET', '/api/emails/inbox?perPage=100');
    return (Array.isArray(r.body) ? r.body : []).find((m) => m.subject === subject);
  });
