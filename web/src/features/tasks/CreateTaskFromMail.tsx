// 'צור משימה' in the reading pane's actions: the task modal, starting with the mail's subject as
// the title and linked to the mail (the task then shows the subject as a link back to it). Saved:
// a toast 'המשימה נוצרה', and the tasks lists (if loaded) are re-read.

import { useState } from 'react';
import { useSWRConfig } from 'swr';
import { isTasksKey } from '../../api/keys';
import { useToast } from '../../session/Toasts';
import { TasksIcon } from '../../components/icons';
import { heTasks } from '../../i18n/tasks';
import { TaskForm } from './TaskForm';

export function CreateTaskFromMail({ mail }: { mail: { id: string; subject: string } }) {
  const toast = useToast();
  const { mutate } = useSWRConfig();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="chip-button"
        title={heTasks.fromMailHint}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        data-testid="mail-create-task"
      >
        <TasksIcon />
        {heTasks.fromMailButton}
      </button>
      {open && (
        <TaskForm
          task={null}
          fromMail={{ emailId: mail.id, subject: mail.subject ?? '' }}
          onClose={() => setOpen(false)}
          onSaved={() => {
            setOpen(false);
            toast.success(heTasks.created);
            void mutate(isTasksKey);
          }}
        />
      )}
    </>
  );
}
