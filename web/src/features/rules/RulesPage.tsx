// The rules page (spec 001 "Rules and filters page", §4, §5): a header with the count and the add
// button, a line on what rules do, and the rules in the order they run, each with its active
// switch, the buttons that move it, run-now, activity, edit and delete. Every change answers with
// the rule (or the whole list for a new order), which goes straight into the cache: the switch and
// a move show at once and are put back if the server refuses (with a toast).
//
// Spec 001 §8 has rule save and delete failures "logged only"; here they are shown: a failed save
// in the form (which stays open), a failed switch, move or delete in a toast.

import { useCallback, useState } from 'react';
import useSWR from 'swr';
import { errorMessage } from '../../api/client';
import { keys } from '../../api/keys';
import { deleteRule, movedIds, orderRules, setRuleActive, type Rule, type RulesResponse } from '../../api/rules';
import { useToast } from '../../session/Toasts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { PlusIcon, RulesIcon } from '../../components/icons';
import { LoadError } from '../../components/LoadError';
import { he } from '../../i18n/he';
import { heRules } from '../../i18n/rules';
import '../../styles/rules.css';
import '../../styles/rules-dialogs.css';
import { RuleActivity } from './RuleActivity';
import { RuleForm } from './RuleForm';
import { RuleRow } from './RuleRow';
import { RunRuleDialog } from './RunRuleDialog';

const t = heRules;

/** The list with one rule replaced by `next` (or changed by it). */
function withRule(list: RulesResponse | undefined, id: string, next: (r: Rule) => Rule): RulesResponse | undefined {
  return list && { ...list, rules: list.rules.map((r) => (r.id === id ? next(r) : r)) };
}

export default function RulesPage() {
  const toast = useToast();
  const list = useSWR<RulesResponse>(keys.rules());
  const { mutate } = list;
  const [editing, setEditing] = useState<Rule | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Rule | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [running, setRunning] = useState<Rule | null>(null);
  const [activityOf, setActivityOf] = useState<Rule | null>(null);
  const [moving, setMoving] = useState(false);

  const onActive = useCallback(
    async (rule: Rule, active: boolean) => {
      // Shown at once; only this rule's switch goes back if the server refuses.
      await mutate((d) => withRule(d, rule.id, (r) => ({ ...r, is_active: active })), { revalidate: false });
      try {
        const updated = await setRuleActive(rule.id, active);
        await mutate((d) => withRule(d, rule.id, () => updated), { revalidate: false });
      } catch (err) {
        await mutate((d) => withRule(d, rule.id, (r) => ({ ...r, is_active: !active })), { revalidate: false });
        toast.error(`${t.activeFailed}: ${errorMessage(err)}`);
      }
    },
    [mutate, toast],
  );

  const rules = list.data?.rules;
  const onMove = useCallback(
    async (index: number, step: -1 | 1) => {
      if (!rules) return;
      const ids = movedIds(
        rules.map((r) => r.id),
        index,
        step,
      );
      if (!ids) return;
      const byId = new Map(rules.map((r) => [r.id, r]));
      setMoving(true);
      await mutate((d) => d && { ...d, rules: ids.flatMap((id) => byId.get(id) ?? []) }, { revalidate: false });
      try {
        const answer = await orderRules(ids);
        await mutate(answer, { revalidate: false });
      } catch (err) {
        toast.error(`${t.orderFailed}: ${errorMessage(err)}`);
        void mutate();
      } finally {
        setMoving(false);
      }
    },
    [rules, mutate, toast],
  );

  const onActiveRow = useCallback((rule: Rule, active: boolean) => void onActive(rule, active), [onActive]);
  const onMoveRow = useCallback((index: number, step: -1 | 1) => void onMove(index, step), [onMove]);
  const onEdit = useCallback((rule: Rule) => setEditing(rule), []);
  const onDelete = useCallback((rule: Rule) => setDeleting(rule), []);
  const onRun = useCallback((rule: Rule) => setRunning(rule), []);
  const onActivity = useCallback((rule: Rule) => setActivityOf(rule), []);

  function saved(rule: Rule, created: boolean) {
    setEditing(null);
    toast.success(created ? t.createdRule(rule.name) : t.updated(rule.name));
    void mutate(
      (d) => d && { ...d, rules: created ? [...d.rules, rule] : d.rules.map((r) => (r.id === rule.id ? rule : r)) },
      { revalidate: false },
    );
  }

  async function confirmDelete(rule: Rule) {
    setDeleteBusy(true);
    try {
      await deleteRule(rule.id);
      await mutate((d) => d && { ...d, rules: d.rules.filter((r) => r.id !== rule.id) }, { revalidate: false });
      toast.success(t.deleted(rule.name));
    } catch (err) {
      toast.error(`${t.deleteFailed}: ${errorMessage(err)}`);
      void mutate();
    } finally {
      setDeleteBusy(false);
      setDeleting(null);
    }
  }

  const add = (
    <button type="button" className="button button--primary" onClick={() => setEditing('new')} data-testid="rules-add">
      <PlusIcon />
      {t.add}
    </button>
  );

  let content;
  if (!rules && list.error) {
    content = (
      <LoadError
        message={`${t.loadFailed} ${errorMessage(list.error)}`}
        onRetry={() => void mutate()}
        testId="rules-error"
        retryTestId="rules-retry"
      />
    );
  } else if (!rules) {
    content = (
      <p className="card__status" role="status" data-testid="rules-loading">
        {t.loading}
      </p>
    );
  } else if (rules.length === 0) {
    content = (
      <EmptyState testId="rules-empty" icon={<RulesIcon />} action={add}>
        <p className="empty-state__title">{t.empty}</p>
        <p>{t.emptyHint}</p>
      </EmptyState>
    );
  } else {
    content = (
      <ol className="rule-list" aria-label={t.listLabel} data-testid="rule-list">
        {rules.map((rule, i) => (
          <RuleRow
            key={rule.id}
            rule={rule}
            index={i}
            total={rules.length}
            moveDisabled={moving}
            onActive={onActiveRow}
            onMove={onMoveRow}
            onRun={onRun}
            onActivity={onActivity}
            onEdit={onEdit}
            onDelete={onDelete}
          />
        ))}
      </ol>
    );
  }

  return (
    <section className="page-section rules-page" data-testid="page-RulesPage" aria-labelledby="rules-title">
      <header className="rules-header">
        <div className="rules-header__title">
          <h2 id="rules-title">{he.pages.Rules}</h2>
          {rules && (
            <span className="rules-header__count" data-testid="rules-count" data-count={rules.length}>
              {t.count(rules.length)}
            </span>
          )}
        </div>
        {add}
      </header>
      <p className="rules-intro">{t.intro}</p>
      {list.error && rules && (
        <p className="notice notice--error" role="alert">
          {t.loadFailed} {errorMessage(list.error)}
        </p>
      )}
      {content}

      {editing && <RuleForm rule={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={saved} />}
      {running && (
        <RunRuleDialog
          rule={running}
          onClose={() => setRunning(null)}
          onShowActivity={(rule) => {
            setRunning(null);
            setActivityOf(rule);
          }}
        />
      )}
      {activityOf && <RuleActivity rule={activityOf} onClose={() => setActivityOf(null)} />}
      {deleting && (
        <ConfirmDialog
          title={t.deleteTitle}
          confirmLabel={t.deleteYes}
          cancelLabel={t.deleteNo}
          danger
          busy={deleteBusy}
          onConfirm={() => void confirmDelete(deleting)}
          onCancel={() => setDeleting(null)}
        >
          <p dir="auto">{t.deleteQuestion(deleting.name)}</p>
          <p className="muted">{t.deleteNote}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
