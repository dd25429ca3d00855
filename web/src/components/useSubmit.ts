// A form's submit, as the app's forms do it: nothing while one is under way; a problem the form
// finds itself is shown and nothing is sent; otherwise the request runs (`submitting`
// meanwhile), and its failure's reason is shown — on the form's error line unless told where.

import { useState, type FormEvent } from 'react';
import { errorMessage } from '../api/client';

export function useSubmit() {
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  /** `problem`: what the form's own check found (null: send). `onFailure`: where a failure's reason goes. */
  async function submit(
    e: FormEvent,
    problem: string | null,
    send: () => Promise<void>,
    onFailure: (message: string) => void = setError,
  ): Promise<void> {
    e.preventDefault();
    if (submitting) return;
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      await send();
    } catch (err) {
      onFailure(errorMessage(err));
    } finally {
      setSubmitting(false);
    }
  }

  return { submitting, error, setError, submit };
}
