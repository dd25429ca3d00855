// "Copy" beside a value: the clipboard when the browser allows it, and a short "copied".

import { useState } from 'react';
import { heMcp } from '../../i18n/mcp';

export function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="link-button"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => {
          setCopied(true);
          window.setTimeout(() => setCopied(false), 2000);
        });
      }}
    >
      {copied ? heMcp.copied : heMcp.copy}
    </button>
  );
}
