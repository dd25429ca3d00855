// The mail's attachments: name, size, a progress bar while uploading, the server's message when an
// upload failed, and a remove button (not while uploading: the upload cannot be cancelled midway,
// so that button could not work).

import { CloseIcon, PaperclipIcon } from '../../components/icons';
import { he } from '../../i18n/he';
import { heCompose } from '../../i18n/compose';
import { formatSize } from '../../lib/size';
import type { UploadItem } from './useUploads';
import { IconButton } from '../../components/IconButton';

export function AttachmentList({ items, onRemove }: { items: UploadItem[]; onRemove: (key: string) => void }) {
  if (items.length === 0) return null;
  return (
    <ul className="uploads" aria-label={heCompose.attachments}>
      {items.map((it) => (
        <li
          key={it.key}
          className={`upload upload--${it.state}`}
          data-testid="attachment-item"
          data-name={it.name}
          data-state={it.state}
        >
          <PaperclipIcon />
          <span className="upload__text">
            <bdi className="upload__name" dir="auto">
              {it.name}
            </bdi>
            <span className="upload__size">{formatSize(it.size, he.mail.sizeUnits)}</span>
          </span>
          {it.state === 'uploading' && (
            <progress
              className="upload__progress"
              max={1}
              value={it.progress}
              aria-label={heCompose.uploadProgress(it.name)}
              data-testid="attachment-progress"
            />
          )}
          {it.state === 'failed' && (
            <p className="upload__error" role="alert" data-testid="attachment-error">
              {heCompose.failedWith(heCompose.uploadFailed(it.name), it.error ?? '')}
            </p>
          )}
          {it.state !== 'uploading' && (
            <IconButton
              label={heCompose.removeAttachment(it.name)}
              title={heCompose.removeAttachment(it.name)}
              className="upload__remove"
              onClick={() => onRemove(it.key)}
              testId="attachment-remove"
            >
              <CloseIcon />
            </IconButton>
          )}
        </li>
      ))}
    </ul>
  );
}
