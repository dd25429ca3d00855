// Schedule send (spec 000 §5): quick options fill the date and time, which the user can still
// change; the schedule button stays disabled until the mail has recipient, subject and body and a
// date and a time are chosen, and the message says which of those is missing.

import { useState } from 'react';
import { Modal } from '../../components/Modal';
import { heCompose } from '../../i18n/compose';
import { formatDateTime } from '../../lib/dates';
import { QUICK_OPTIONS, dateInputValue, quickSlot, slotDate, type Slot } from './schedule';

export interface ScheduleModalProps {
  /** Recipient, subject and body are all present. */
  fieldsReady: boolean;
  busy: boolean;
  onSchedule: (when: Date) => void;
  onClose: () => void;
  /** The clock, replaceable in tests. */
  now?: () => Date;
}

export function ScheduleModal({ fieldsReady, busy, onSchedule, onClose, now = () => new Date() }: ScheduleModalProps) {
  const [slot, setSlot] = useState<Slot>({ date: '', time: '' });
  const when = slotDate(slot);
  const past = when !== null && when.getTime() <= now().getTime();

  let problem: string | null = null;
  if (!fieldsReady) problem = heCompose.scheduler.fieldsMissing;
  else if (!when) problem = heCompose.scheduler.pickDateTime;
  else if (past) problem = heCompose.scheduler.past;
  const ready = problem === null && !busy;

  return (
    <Modal title={heCompose.scheduler.title} closeLabel={heCompose.scheduler.cancel} onClose={onClose} busy={busy} testId="schedule-modal">
      <div className="schedule">
        <fieldset className="schedule__quick">
          <legend>{heCompose.scheduler.quick}</legend>
          {QUICK_OPTIONS.map((option) => {
            const s = quickSlot(option, now());
            const chosen = s.date === slot.date && s.time === slot.time;
            return (
              <button
                key={option}
                type="button"
                className="button schedule__option"
                aria-pressed={chosen}
                onClick={() => setSlot(s)}
                data-testid={`schedule-quick-${option}`}
              >
                {heCompose.scheduler[option]}
              </button>
            );
          })}
        </fieldset>
        <div className="schedule__fields">
          <div className="field">
            <label htmlFor="schedule-date">{heCompose.scheduler.date}</label>
            <input
              id="schedule-date"
              type="date"
              min={dateInputValue(now())}
              value={slot.date}
              onChange={(e) => setSlot((s) => ({ ...s, date: e.target.value }))}
              data-testid="schedule-date"
            />
          </div>
          <div className="field">
            <label htmlFor="schedule-time">{heCompose.scheduler.time}</label>
            <input
              id="schedule-time"
              type="time"
              value={slot.time}
              onChange={(e) => setSlot((s) => ({ ...s, time: e.target.value }))}
              data-testid="schedule-time"
            />
          </div>
        </div>
        {problem ? (
          <p className="notice notice--warning" role="status" data-testid="schedule-problem">
            {problem}
          </p>
        ) : (
          when && (
            <p className="notice notice--info" role="status" data-testid="schedule-summary">
              {heCompose.scheduler.willSend(formatDateTime(when))}
            </p>
          )
        )}
        <div className="dialog__actions">
          <button
            type="button"
            className="button button--primary"
            disabled={!ready}
            onClick={() => when && onSchedule(when)}
            data-testid="schedule-confirm"
          >
            {busy ? heCompose.scheduler.scheduling : heCompose.scheduler.confirm}
          </button>
          <button type="button" className="button" onClick={onClose} disabled={busy}>
            {heCompose.scheduler.cancel}
          </button>
        </div>
      </div>
    </Modal>
  );
}
