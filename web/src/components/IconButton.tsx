// A button that shows only an icon: its name for assistive technology is `label`, its tooltip
// `title` (none unless given), `danger` colours it as a destructive action, `small` makes it a
// row's smaller button. The icon is the child.

import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';

type NativeButton = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'title' | 'aria-label' | 'children'>;

export interface IconButtonProps extends NativeButton {
  label: string;
  title?: string;
  danger?: boolean;
  small?: boolean;
  testId?: string;
  ref?: Ref<HTMLButtonElement>;
  children: ReactNode;
}

export function IconButton({ label, title, danger = false, small = false, className, testId, children, ...button }: IconButtonProps) {
  const classes = ['icon-button', danger && 'icon-button--danger', small && 'icon-button--small', className].filter(Boolean).join(' ');
  return (
    <button type="button" {...button} className={classes} aria-label={label} title={title} data-testid={testId}>
      {children}
    </button>
  );
}
