// "אימון AI" (spec 001 "AI training page", §3 "AI training settings", §4 "AI training save", §8,
// §9): the server's copy of the user's AI training settings, loaded on open (SWR), edited on the
// page, and sent back whole by 'שמור לשרת' — a saving indicator, then a success message that hides
// after 3 s. 'טען מהשרת' re-reads the server copy. Two tabs (spec 001 §2): the general settings
// (prompt, tone, language, templates…) and the spam detection training (features/spam/
// SpamTraining); both edit the one form, saved together. A bad spam pattern comes back as the
// server's Hebrew error naming its line, shown below, and nothing is saved.
//
// The household's settings (spec 001 §7 "AI training settings", §8): an admin saves the page's
// current settings for all users ('שמירה לכל המשתמשים'); when they exist, anyone can fill the
// form with them ('טעינת הגדרות גלובליות', null fields skipped) and then save as usual.

import { useEffect, useRef, useState } from 'react';
import useSWR from 'swr';
import { aiKeys, loadTraining, saveTraining, type AiTrainingSettings } from '../../api/ai';
import {
  fetchGlobalTraining,
  householdKeys,
  saveGlobalTraining,
  type GlobalSettingsExists,
} from '../../api/household';
import { withReason } from '../../api/outgoing';
import { useAuth } from '../../session/AuthProvider';
import { useToast } from '../../session/Toasts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { heAiTraining } from '../../i18n/aiTraining';
import { heHousehold } from '../../i18n/household';
import { heSpam } from '../../i18n/spam';
import { formatDateTime } from '../../lib/dates';
import { SpamTraining } from '../spam/SpamTraining';
import { GeneralSettings } from './GeneralSettings';
import { TemplatesEditor } from './TemplatesEditor';
import '../../styles/household.css';
import { sameForm, toBody, toForm, withGlobal, type TrainingForm } from './trainingForm';

const t = heAiTraining;
const tg = heHousehold.training;

/** Spec 001 §4/§9: the success message hides after 3 seconds. */
export const SAVED_MESSAGE_MS = 3000;

type Busy = 'save' | 'load' | 'globalSave' | 'globalLoad' | null;
type Tab = 'general' | 'spam';
const TABS: readonly Tab[] = ['general', 'spam'];

export default function AITrainingPage() {
  const toast = useToast();
  const { data, error, mutate } = useSWR<AiTrainingSettings>(aiKeys.training());
  const isAdmin = useAuth().user?.role === 'admin';
  const { data: global, error: globalError, mutate: mutateGlobal } = useSWR<GlobalSettingsExists>(
    householdKeys.trainingExists(),
  );
  // null: untouched, the page shows the server copy as it is.
  const [draft, setDraft] = useState<TrainingForm | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [confirmLoad, setConfirmLoad] = useState(false);
  const [tab, setTab] = useState<Tab>('general');
  const savedTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(savedTimer.current), []);

  useEffect(() => {
    // Spec 001 §8: a failed existence check is only logged.
    if (globalError) console.warn('global AI training settings check failed', globalError);
  }, [globalError]);

  const server = data ? toForm(data) : null;
  const form = draft ?? server;
  const dirty = draft !== null && server !== null && !sameForm(draft, server);
  const body = form ? toBody(form) : null;

  function change(values: Partial<TrainingForm>) {
    if (!form) return;
    setDraft({ ...form, ...values });
  }

  function showSaved() {
    window.clearTimeout(savedTimer.current);
    setSaved(true);
    savedTimer.current = window.setTimeout(() => setSaved(false), SAVED_MESSAGE_MS);
  }

  async function save() {
    if (!body || busy) return;
    setBusy('save');
    setFailure(null);
    setSaved(false);
    try {
      const res = await saveTraining(body);
      if (res?.settings) await mutate(res.settings, { revalidate: false });
      else await mutate();
      setDraft(null);
      showSaved();
    } catch (err) {
      setFailure(withReason(t.saveFailed, err));
    } finally {
      setBusy(null);
    }
  }

  async function load() {
    setConfirmLoad(false);
    if (busy) return;
    setBusy('load');
    setFailure(null);
    setSaved(false);
    try {
      const fresh = await loadTraining();
      await mutate(fresh, { revalidate: false });
      setDraft(null);
      toast.success(t.loaded);
    } catch (err) {
      setFailure(withReason(t.loadFailed, err));
    } finally {
      setBusy(null);
    }
  }

  /** The admin's save of the page's current settings for all users. */
  async function saveForAll() {
    if (!body || busy) return;
    setBusy('globalSave');
    setFailure(null);
    setSaved(false);
    try {
      const res = await saveGlobalTraining(body);
      toast.success(res?.message || tg.savedForAll);
      void mutateGlobal();
    } catch (err) {
      setFailure(withReason(tg.saveForAllFailed, err));
    } finally {
      setBusy(null);
    }
  }

  /** Fills the form with the household's settings; the user then saves as usual. */
  async function loadGlobal() {
    if (!form || busy) return;
    setBusy('globalLoad');
    setFailure(null);
    setSaved(false);
    try {
      const res = await fetchGlobalTraining();
      if (!res?.hasSettings || !res.settings) {
        setFailure(`${tg.loadGlobalFailed}: ${tg.none}`);
        return;
      }
      setDraft(withGlobal(form, res.settings));
      toast.info(tg.loadedGlobal);
    } catch (err) {
      setFailure(withReason(tg.loadGlobalFailed, err));
    } finally {
      setBusy(null);
    }
  }

  // A failed first load shows like a failed 'טען מהשרת', with the button to try again.
  const shownFailure = failure ?? (!data && error ? withReason(t.loadFailed, error) : null);
  const disabled = busy !== null;

  return (
    <section className="page-section ai-training" data-testid="page-AITrainingPage">
      <p className="settings__intro">{t.intro}</p>

      <div className="tabs ai-training__tabs" role="tablist" aria-label={heSpam.tabs.label}>
        {TABS.map((k) => (
          <button
            key={k}
            type="button"
            role="tab"
            id={`training-tab-${k}`}
            aria-selected={tab === k}
            aria-controls={`training-panel-${k}`}
            className={`tabs__tab${tab === k ? ' is-active' : ''}`}
            onClick={() => setTab(k)}
            data-testid={`training-tab-${k}`}
          >
            {heSpam.tabs[k]}
          </button>
        ))}
      </div>

      {form ? (
        <div role="tabpanel" id={`training-panel-${tab}`} aria-labelledby={`training-tab-${tab}`}>
          {tab === 'general' ? (
            <>
              <GeneralSettings form={form} onChange={change} disabled={disabled} />
              <TemplatesEditor templates={form.templates} onChange={(templates) => change({ templates })} disabled={disabled} />
            </>
          ) : (
            <SpamTraining form={form} onChange={change} disabled={disabled} />
          )}
        </div>
      ) : (
        !shownFailure && (
          <p className="card__status" role="status" data-testid="training-loading">
            {t.loading}
          </p>
        )
      )}

      <div className="ai-training__bar">
        <div className="ai-training__messages">
          {busy === 'save' && (
            <p className="ai-training__saving" role="status" data-testid="training-saving">
              {t.saving}
            </p>
          )}
          {saved && (
            <p className="notice notice--success" role="status" data-testid="training-saved">
              {t.saved}
            </p>
          )}
          {shownFailure && (
            <p className="notice notice--error" role="alert" data-testid="training-error">
              {shownFailure}
            </p>
          )}
          {dirty && !busy && (
            <p className="ai-training__unsaved" data-testid="training-dirty">
              {t.unsaved}
            </p>
          )}
          {data && !dirty && !busy && !saved && (
            <p className="ai-training__updated" data-testid="training-updated-at">
              {data.updatedAt ? t.updatedAt(formatDateTime(data.updatedAt)) : t.neverSaved}
            </p>
          )}
          {global?.exists && (
            <p id="training-global-info" className="ai-training__global" data-testid="training-global-info">
              {tg.globalInfo(
                global.updatedBy || heHousehold.unknownUser,
                global.lastUpdated ? formatDateTime(global.lastUpdated) : '',
              )}
            </p>
          )}
        </div>
        <div className="form__actions">
          <button
            type="button"
            className="button button--primary"
            disabled={disabled || !body}
            onClick={() => void save()}
            data-testid="training-save"
          >
            {busy === 'save' ? t.saving : t.save}
          </button>
          <button
            type="button"
            className="button"
            disabled={disabled}
            onClick={() => (dirty ? setConfirmLoad(true) : void load())}
            data-testid="training-load"
          >
            {busy === 'load' ? t.reloading : t.load}
          </button>
          {isAdmin && (
            <button
              type="button"
              className="button"
              disabled={disabled || !body}
              onClick={() => void saveForAll()}
              data-testid="training-save-all"
            >
              {busy === 'globalSave' ? tg.savingForAll : tg.saveForAll}
            </button>
          )}
          {global?.exists && (
            <button
              type="button"
              className="button"
              disabled={disabled || !form}
              onClick={() => void loadGlobal()}
              aria-describedby="training-global-info"
              data-testid="training-load-global"
            >
              {busy === 'globalLoad' ? tg.loadingGlobal : tg.loadGlobal}
            </button>
          )}
        </div>
      </div>

      {confirmLoad && (
        <ConfirmDialog
          title={t.discardTitle}
          confirmLabel={t.discardYes}
          cancelLabel={t.discardNo}
          onConfirm={() => void load()}
          onCancel={() => setConfirmLoad(false)}
        >
          <p>{t.discardQuestion}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
