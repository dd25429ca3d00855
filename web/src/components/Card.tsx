// A card of the settings-style pages: a `<section class="card">` labelled by its title (an h2),
// an optional intro line under the title, then the card's content.

import type { ReactNode } from 'react';

export interface CardProps {
  /** The title's id is `${id}-title`; the section is labelled by it. */
  id: string;
  title: ReactNode;
  /** A short line under the title (class `card__status`). */
  intro?: ReactNode;
  /** Classes besides `card`. */
  className?: string;
  testId?: string;
  children?: ReactNode;
}

export function Card({ id, title, intro, className, testId, children }: CardProps) {
  return (
    <section className={className ? `card ${className}` : 'card'} aria-labelledby={`${id}-title`} data-testid={testId}>
      <h2 id={`${id}-title`} className="card__title">
        {title}
      </h2>
      {intro && <p className="card__status">{intro}</p>}
      {children}
    </section>
  );
}
