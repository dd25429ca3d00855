// The compose page's AI menu (spec 000 §2, §5, §8): generate a subject from the body, or rewrite
// the body in one of three styles. Both need a non-empty body (checked here, no request). One
// call at a time (`busy`). An improvement replaces the editor's HTML and keeps what was there, so
// 'ביטול השיפור' can put it back until the next edit; a failure leaves the body untouched.

import { useRef, useState, type RefObject } from 'react';
import { generateSubject, improveEmail, type ImproveStyle } from '../../api/ai';
import { useToast } from '../../session/Toasts';
import { heAi } from '../../i18n/ai';
import { showAiFailure } from '../ai/aiFailure';
import type { EditorHandle } from './RichEditor';

export type AiAction = 'subject' | ImproveStyle;

export interface AiHelpOptions {
  editorRef: RefObject<EditorHandle | null>;
  onSubject: (subject: string) => void;
  /** A message for the page's error line (null clears it). */
  onError: (message: string | null) => void;
}

export function useAiHelp({ editorRef, onSubject, onError }: AiHelpOptions) {
  const toast = useToast();
  const [busy, setBusy] = useState<AiAction | null>(null);
  // The body before the last improvement, while it can still be undone.
  const [undoHtml, setUndoHtml] = useState<string | null>(null);
  const running = useRef(false);

  async function run(action: AiAction) {
    const editor = editorRef.current;
    if (running.current || !editor) return;
    if (editor.isBlank()) {
      onError(heAi.bodyRequired);
      return;
    }
    running.current = true;
    setBusy(action);
    onError(null);
    try {
      if (action === 'subject') {
        const { subject } = await generateSubject(editor.html());
        onSubject(subject.trim());
      } else {
        const { improved } = await improveEmail(editor.html(), action);
        // What is there now (the user may have typed while waiting) is what undo brings back.
        const previous = editor.html();
        // The text is a language model's: setHtml keeps only plain formatting and safe links
        // (cleanHtml.ts), so nothing the model was talked into writing can run.
        editor.setHtml(improved);
        setUndoHtml(previous);
      }
    } catch (e) {
      showAiFailure(toast, e, action === 'subject' ? heAi.subjectFailed : heAi.improveFailed);
    } finally {
      running.current = false;
      setBusy(null);
    }
  }

  function undoImprove() {
    if (undoHtml === null) return;
    const html = undoHtml;
    setUndoHtml(null);
    editorRef.current?.setHtml(html);
    editorRef.current?.focus();
  }

  return {
    busy,
    run,
    undoHtml,
    undoImprove,
    /** The user edited the body: the improvement is theirs now. */
    forgetUndo: () => setUndoHtml(null),
  };
}
