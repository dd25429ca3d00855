// The open mail lives in the URL (`&mail=<email id>`), so links and other screens can open one
// and the browser's back button closes it. Opening from the list pushes one history entry;
// switching to another mail while one is open replaces it, so one Back returns to the list.

import { useCallback, useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';

export const MAIL_PARAM = 'mail';

export function useOpenMail() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const selectedId = params.get(MAIL_PARAM);
  const openedHere = useRef(false);
  // Read through a ref so that `openMail` keeps its identity and the list rows need not re-render.
  const current = useRef(selectedId);
  useEffect(() => {
    current.current = selectedId;
  }, [selectedId]);

  const openMail = useCallback(
    (id: string) => {
      if (id === current.current) return;
      const wasOpen = current.current !== null;
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          next.set(MAIL_PARAM, id);
          return next;
        },
        { replace: wasOpen },
      );
      if (!wasOpen) openedHere.current = true;
    },
    [setParams],
  );

  const close = useCallback(() => {
    if (openedHere.current) {
      openedHere.current = false;
      navigate(-1);
      return;
    }
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete(MAIL_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [navigate, setParams]);

  return { selectedId, openMail, close };
}
