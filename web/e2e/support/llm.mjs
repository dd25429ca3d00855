// A language-model provider on loopback that speaks the real wire formats, for the browser
// tests (the Rust tests have their own in tests/common/llm.rs): the Anthropic Messages API
// (`POST /v1/messages`) and OpenAI chat completions (`POST …/chat/completions`). It records every
// request and answers with something that fits the question: JSON for the structured calls, a
// subject line, a rewrite or a reply.
import { createServer } from 'node:http';

export const ANSWERS = {
  reply: 'תודה על ההודעה, יום שלישי בעשר מתאים לי.\n\nבברכה',
  subject: 'פגישת צוות ביום שלישי',
  improved: 'שלום רב,\n\nאשמח לקבוע פגישה ביום שלישי בשעה עשר.\n\nבברכה',
  summary: { summary: 'נועה מבקשת לקבוע פגישה ביום שלישי.', sentiment: 'positive', priority: 'high' },
  replies: [
    { label: 'אישור', text: 'מצוין, נתראה ביום שלישי.' },
    { label: 'בקשת פרטים', text: 'באיזו שעה נוח לך?' },
    { label: 'דחייה', text: 'שלישי לא מתאים לי, אפשר ברביעי?' },
  ],
  composed: 'שלום לכולם,\n\nנא לשלוח את הדוחות עד יום חמישי.\n\nתודה',
};

function fitting(system, user) {
  if (system.includes('"summary"')) return JSON.stringify(ANSWERS.summary);
  if (system.includes('"replies"')) return JSON.stringify({ replies: ANSWERS.replies });
  if (system.includes('one subject line')) return ANSWERS.subject;
  if (system.includes('Rewrite')) return ANSWERS.improved;
  if (user.includes('from this description')) return ANSWERS.composed;
  return ANSWERS.reply;
}

export async function startLlm() {
  const requests = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      let body = null;
      try {
        body = JSON.parse(raw);
      } catch {
        /* recorded as null */
      }
      const anthropic = req.url.endsWith('/v1/messages');
      const system = anthropic ? (body?.system ?? '') : (body?.messages?.[0]?.content ?? '');
      const user = body?.messages?.at(-1)?.content ?? '';
      requests.push({ path: req.url, headers: req.headers, body, system, user });
      const text = fitting(system, user);
      const answer = anthropic
        ? { id: 'msg_e2e', type: 'message', role: 'assistant', model: body?.model, content: [{ type: 'text', text }], stop_reason: 'end_turn' }
        : { id: 'chatcmpl-e2e', object: 'chat.completion', model: body?.model, choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    last: () => requests.at(-1),
    stop: () => new Promise((r) => server.close(r)),
  };
}
