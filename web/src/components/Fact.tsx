// One line of a `<dl className="facts">`: what (the term) and its value, as the settings cards
// show who is signed in, the device, the auto-reply monitor.

import type { ReactNode } from 'react';

/** `dir`: the value's direction, for user content (a name) among the Hebrew. */
export function Fact({ label, dir, testId, children }: { label: ReactNode; dir?: 'auto'; testId?: string; children: ReactNode }) {
  return (
    <div className="facts__row">
      <dt>{label}</dt>
      <dd dir={dir} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
