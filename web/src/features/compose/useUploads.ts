// Attachments of the mail being written. Each chosen file is uploaded at once (POST
// /api/attachments, with progress) so that sending only names upload ids; a failed upload stays
// in the list with the server's message (413 "too large") until the user dismisses it.

import { useCallback, useRef, useState } from 'react';
import { removeUpload, uploadAttachment, type UploadedAttachment } from '../../api/outgoing';

export interface UploadItem {
  key: string;
  name: string;
  size: number;
  state: 'uploading' | 'done' | 'failed';
  /** 0..1 while uploading. */
  progress: number;
  error?: string;
  uploaded?: UploadedAttachment;
  /**
   * Belongs to an outbox item being edited: removing it only drops it from this mail (the save
   * does that); deleting the upload would break the queued item if the user does not save.
   */
  carried?: boolean;
}

export interface Uploads {
  items: UploadItem[];
  add: (files: Iterable<File>) => void;
  remove: (key: string) => void;
  /** True while any upload runs: sending now would leave that file out. */
  busy: boolean;
  ids: () => string[];
}

export function useUploads(initial: UploadedAttachment[], { carried = false }: { carried?: boolean } = {}): Uploads {
  const nextKey = useRef(0);
  const [items, setItems] = useState<UploadItem[]>(() =>
    initial.map((a) => ({
      key: `a${nextKey.current++}`,
      name: a.name,
      size: a.size,
      state: 'done',
      progress: 1,
      uploaded: a,
      carried,
    })),
  );

  const update = useCallback((key: string, change: Partial<UploadItem>) => {
    setItems((list) => list.map((it) => (it.key === key ? { ...it, ...change } : it)));
  }, []);

  const add = useCallback(
    (files: Iterable<File>) => {
      for (const file of files) {
        const key = `a${nextKey.current++}`;
        setItems((list) => [...list, { key, name: file.name, size: file.size, state: 'uploading', progress: 0 }]);
        uploadAttachment(file, (progress) => update(key, { progress }))
          .then((uploaded) => update(key, { state: 'done', progress: 1, uploaded, size: uploaded.size ?? file.size }))
          .catch((e: unknown) =>
            update(key, { state: 'failed', error: e instanceof Error ? e.message : String(e) }),
          );
      }
    },
    [update],
  );

  const remove = useCallback(
    (key: string) => {
      const item = items.find((it) => it.key === key);
      setItems((list) => list.filter((it) => it.key !== key));
      // The server forgets unsent uploads within a day anyway, so a failed DELETE is not worth
      // bothering the user with; the file is out of this mail either way.
      if (item?.state === 'done' && item.uploaded && !item.carried) {
        removeUpload(item.uploaded.id).catch(() => undefined);
      }
    },
    [items],
  );

  const ids = useCallback(
    () => items.filter((it) => it.state === 'done' && it.uploaded).map((it) => it.uploaded!.id),
    [items],
  );

  return { items, add, remove, busy: items.some((it) => it.state === 'uploading'), ids };
}
