// vCard import and export. Import sends the chosen .vcf file as it is (POST /api/contacts/import)
// and reports 'נוספו N, עודכנו M, דולגו K' — or the server's reason: too big, no card with a name
// and an address — through `onResult`, which the page shows under its header. Export downloads
// every contact as contacts.vcf (a fetch with the session token, then a blob URL: the route needs
// the Authorization header, as the settings backup's download does).

import { useRef, useState } from 'react';
import { exportContacts, importContacts } from '../../api/contacts';
import { errorMessage } from '../../api/client';
import { useToast } from '../../session/Toasts';
import { DownloadIcon, UploadIcon } from '../../components/icons';
import { heContacts } from '../../i18n/contacts';

const t = heContacts.vcard;

export interface ImportResult {
  kind: 'success' | 'error';
  text: string;
}

export interface VcardButtonsProps {
  /** Nothing to export (known to be empty). */
  exportDisabled: boolean;
  onResult: (r: ImportResult | null) => void;
  /** Contacts were added or changed. */
  onImported: () => void;
}

export function VcardButtons({ exportDisabled, onResult, onImported }: VcardButtonsProps) {
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);

  async function upload(file: File) {
    setImporting(true);
    onResult(null);
    try {
      const r = await importContacts(file);
      onResult({ kind: 'success', text: t.result(r.added, r.updated, r.skipped) });
      onImported();
    } catch (err) {
      onResult({ kind: 'error', text: `${t.importFailed}: ${errorMessage(err)}` });
    } finally {
      setImporting(false);
    }
  }

  async function download() {
    setExporting(true);
    try {
      await exportContacts();
    } catch (err) {
      toast.error(`${t.exportFailed}: ${errorMessage(err)}`);
    } finally {
      setExporting(false);
    }
  }

  return (
    <>
      <button
        type="button"
        className="button"
        disabled={importing}
        onClick={() => input.current?.click()}
        data-testid="contacts-import"
      >
        <UploadIcon />
        {importing ? t.importing : t.import}
      </button>
      <input
        ref={input}
        type="file"
        accept=".vcf,.vcard,text/vcard,text/x-vcard"
        className="visually-hidden"
        aria-label={t.fileLabel}
        tabIndex={-1}
        onChange={(e) => {
          const file = e.target.files?.[0];
          // The same file can be chosen again (after fixing it).
          e.target.value = '';
          if (file) void upload(file);
        }}
        data-testid="contacts-import-file"
      />
      <button
        type="button"
        className="button"
        disabled={exportDisabled || exporting}
        onClick={() => void download()}
        data-testid="contacts-export"
      >
        <DownloadIcon />
        {exporting ? t.exporting : t.export}
      </button>
    </>
  );
}
