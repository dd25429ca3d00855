// One rule of the list (spec 001 "Rules and filters page", §4): its place in the run order with the
// buttons that move it, its name, the 'stops' badge, the rule in words (describe.ts), when it was
// made (with the labels it adds, in their colours), a folder it moves mail into that is gone
// (deleted on the server: the rule moves nothing until another is chosen), the active switch, and its actions: run it now on the inbox, its activity, edit, delete.
// An inactive rule is dimmed.

import { memo, useId } from 'react';
import type { Rule } from '../../api/rules';
import { ArrowDownIcon, ArrowUpIcon, ClockIcon, PenIcon, PlayIcon, TrashIcon } from '../../components/icons';
import { Switch } from '../../components/Switch';
import { heRules } from '../../i18n/rules';
import { formatDate } from '../../lib/dates';
import { LabelChip } from '../labels/LabelChip';
import { useLabels } from '../labels/useLabels';
import { describeActions, describeConditions } from './describe';

const t = heRules;

export interface RuleRowProps {
  rule: Rule;
  /** Its place in the run order, from 0. */
  index: number;
  /** How many rules there are (the last cannot move down). */
  total: number;
  /** Moving is switched off while an order change is on its way. */
  moveDisabled: boolean;
  onActive: (rule: Rule, active: boolean) => void;
  onMove: (index: number, step: -1 | 1) => void;
  onRun: (rule: Rule) => void;
  onActivity: (rule: Rule) => void;
  onEdit: (rule: Rule) => void;
  onDelete: (rule: Rule) => void;
}

export const RuleRow = memo(function RuleRow({
  rule,
  index,
  total,
  moveDisabled,
  onActive,
  onMove,
  onRun,
  onActivity,
  onEdit,
  onDelete,
}: RuleRowProps) {
  const switchId = useId();
  const name = rule.name;
  const { look } = useLabels();
  const labelled = rule.actions.filter((a) => a.kind === 'add_label');
  return (
    <li
      className={`rule-card${rule.is_active ? '' : ' is-inactive'}`}
      data-testid="rule-row"
      data-id={rule.id}
      data-active={rule.is_active}
      aria-label={name}
    >
      <div className="rule-card__order">
        <span className="rule-card__position" title={t.position(index + 1)} data-testid="rule-position">
          <span aria-hidden="true">{index + 1}</span>
          <span className="visually-hidden">{t.position(index + 1)}</span>
        </span>
        <button
          type="button"
          className="icon-button"
          aria-label={t.moveUp(name)}
          title={t.moveUp(name)}
          disabled={moveDisabled || index === 0}
          onClick={() => onMove(index, -1)}
          data-testid="rule-up"
        >
          <ArrowUpIcon />
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label={t.moveDown(name)}
          title={t.moveDown(name)}
          disabled={moveDisabled || index === total - 1}
          onClick={() => onMove(index, 1)}
          data-testid="rule-down"
        >
          <ArrowDownIcon />
        </button>
      </div>

      <div className="rule-card__main">
        <div className="rule-card__top">
          <h3 className="rule-card__name" dir="auto" data-testid="rule-name">
            {name}
          </h3>
          {rule.stop && (
            <span className="rule-card__stops" data-testid="rule-stops">
              {t.stops}
            </span>
          )}
          {rule.forward_pending && (
            <span className="rule-card__stops" title={t.forwardPendingHint} data-testid="rule-forward-pending">
              {t.forwardPending}
            </span>
          )}
        </div>
        <p className="rule-card__summary" data-testid="rule-summary">
          <span className="rule-card__if">{describeConditions(rule)}</span>
          <span className="rule-card__then">
            {t.describe.then}
            {describeActions(rule, (k) => look(k).name)}
          </span>
          {labelled.length > 0 && (
            <span className="user-labels">
              {labelled.map((a) => (
                <LabelChip key={a.value} look={look(a.value)} testId="rule-label" />
              ))}
            </span>
          )}
        </p>
        {rule.missing_folder && (
          <p className="rule-card__missing" role="note" data-testid="rule-missing-folder">
            {t.missingFolder(rule.missing_folder)}
          </p>
        )}
        <p className="rule-card__created">{t.createdOn(formatDate(rule.created_date))}</p>
      </div>

      <div className="rule-card__side">
        <div className="rule-card__switch">
          <Switch
            id={switchId}
            label={rule.is_active ? t.active : t.inactive}
            ariaLabel={`${t.active}: ${name}`}
            checked={rule.is_active}
            onChange={(on) => onActive(rule, on)}
            testId="rule-active"
          />
        </div>
        <div className="rule-card__actions">
          <button type="button" className="button rule-card__run" onClick={() => onRun(rule)} data-testid="rule-run">
            <PlayIcon />
            {t.runNow}
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label={t.activity.show(name)}
            title={t.activity.title}
            onClick={() => onActivity(rule)}
            data-testid="rule-activity"
          >
            <ClockIcon />
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label={t.editLabel(name)}
            title={t.edit}
            onClick={() => onEdit(rule)}
            data-testid="rule-edit"
          >
            <PenIcon />
          </button>
          <button
            type="button"
            className="icon-button icon-button--danger"
            aria-label={t.deleteLabel(name)}
            title={t.delete}
            onClick={() => onDelete(rule)}
            data-testid="rule-delete"
          >
            <TrashIcon />
          </button>
        </div>
      </div>
    </li>
  );
});
