// Small inline SVG icons (no icon font, nothing fetched). Sized by CSS (`.icon` uses --icon-scale)
// and hidden from assistive technology: the control that holds an icon carries the label.

import type { ReactNode } from 'react';

/** The frame of every icon (features with icons of their own use it too). */
export function Svg({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export type P = { className?: string };

export const MenuIcon = (p: P) => (
  <Svg {...p}>
    <path d="M4 6h16M4 12h16M4 18h16" />
  </Svg>
);
export const CloseIcon = (p: P) => (
  <Svg {...p}>
    <path d="M6 6l12 12M18 6L6 18" />
  </Svg>
);
export const PenIcon = (p: P) => (
  <Svg {...p}>
    <path d="M4 20h4L19 9l-4-4L4 16v4z" />
    <path d="M14 6l4 4" />
  </Svg>
);
export const SearchIcon = (p: P) => (
  <Svg {...p}>
    <circle cx="11" cy="11" r="6.5" />
    <path d="M20 20l-4.2-4.2" />
  </Svg>
);
export const InboxIcon = (p: P) => (
  <Svg {...p}>
    <path d="M4 13l2.5-8h11L20 13v6H4z" />
    <path d="M4 13h5l1 2h4l1-2h5" />
  </Svg>
);
export const StarIcon = (p: P) => (
  <Svg {...p}>
    <path d="M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z" />
  </Svg>
);
export const ClockIcon = (p: P) => (
  <Svg {...p}>
    <circle cx="12" cy="12" r="8" />
    <path d="M12 7.5V12l3 2" />
  </Svg>
);
export const ArchiveIcon = (p: P) => (
  <Svg {...p}>
    <path d="M3.5 5h17v4h-17z" />
    <path d="M5 9v10h14V9M10 13h4" />
  </Svg>
);
export const SpamIcon = (p: P) => (
  <Svg {...p}>
    <path d="M8.5 3.5h7l5 5v7l-5 5h-7l-5-5v-7z" />
    <path d="M12 8v5M12 16h.01" />
  </Svg>
);
export const TagIcon = (p: P) => (
  <Svg {...p}>
    <path d="M3.5 12.5V4h8.5l8.5 8.5-8 8z" />
    <circle cx="8" cy="8.5" r="1.2" />
  </Svg>
);
export const InfoIcon = (p: P) => (
  <Svg {...p}>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M12 11v5M12 8h.01" />
  </Svg>
);
// The paper plane points toward inline-end, the "forward" direction in RTL.
export const SendIcon = (p: P) => (
  <Svg {...p}>
    <path d="M20.5 4L3.5 11l7 2.5L13 20.5z" transform="matrix(-1 0 0 1 24 0)" />
  </Svg>
);
export const DraftIcon = (p: P) => (
  <Svg {...p}>
    <path d="M6 3.5h8l4 4v13H6z" />
    <path d="M14 3.5v4h4M9 13h6M9 16.5h4" />
  </Svg>
);
export const TrashIcon = (p: P) => (
  <Svg {...p}>
    <path d="M4.5 6.5h15M9.5 6.5V4h5v2.5M6.5 6.5l1 13.5h9l1-13.5" />
  </Svg>
);
export const FilterIcon = (p: P) => (
  <Svg {...p}>
    <path d="M4 5h16l-6 7.5V19l-4-2v-4.5z" />
  </Svg>
);
export const ContactsIcon = (p: P) => (
  <Svg {...p}>
    <circle cx="9" cy="9" r="3.2" />
    <path d="M3.5 19c.6-3.2 2.8-5 5.5-5s4.9 1.8 5.5 5" />
    <circle cx="17" cy="8.5" r="2.4" />
    <path d="M16 13.2c2.4 0 4 1.5 4.5 4.3" />
  </Svg>
);
export const SparkIcon = (p: P) => (
  <Svg {...p}>
    <path d="M12 3l1.8 5.2L19 10l-5.2 1.8L12 17l-1.8-5.2L5 10l5.2-1.8z" />
    <path d="M18.5 16l.7 1.8 1.8.7-1.8.7-.7 1.8-.7-1.8-1.8-.7 1.8-.7z" />
  </Svg>
);
export const BrainIcon = (p: P) => (
  <Svg {...p}>
    <path d="M9 4.5a3 3 0 00-3 3 3 3 0 00-1.5 5.4A3 3 0 007.5 18 2.5 2.5 0 0012 19.5V5.5A2.5 2.5 0 009 4.5z" />
    <path d="M15 4.5a3 3 0 013 3 3 3 0 011.5 5.4 3 3 0 01-3 5.1A2.5 2.5 0 0112 19.5" />
  </Svg>
);
export const SettingsIcon = (p: P) => (
  <Svg {...p}>
    <circle cx="12" cy="12" r="3" />
    <path d="M19 12a7 7 0 00-.1-1.2l2-1.6-2-3.4-2.4 1a7 7 0 00-2-1.2L14 3h-4l-.5 2.6a7 7 0 00-2 1.2l-2.4-1-2 3.4 2 1.6a7 7 0 000 2.4l-2 1.6 2 3.4 2.4-1a7 7 0 002 1.2L10 21h4l.5-2.6a7 7 0 002-1.2l2.4 1 2-3.4-2-1.6c.1-.4.1-.8.1-1.2z" />
  </Svg>
);
export const BellIcon = (p: P) => (
  <Svg {...p}>
    <path d="M6 16.5V11a6 6 0 0112 0v5.5l1.5 2h-15z" />
    <path d="M10 20.5a2 2 0 004 0" />
  </Svg>
);
// Door with an arrow leaving toward inline-start (left in RTL).
export const LogoutIcon = (p: P) => (
  <Svg {...p}>
    <path d="M14 4h5v16h-5" />
    <path d="M14 12H4M8 8l-4 4 4 4" />
  </Svg>
);
export const TextSizeIcon = (p: P) => (
  <Svg {...p}>
    <path d="M4 18l4.5-12L13 18M5.7 14h5.6M15 18l3-8 3 8M15.8 16h4.4" />
  </Svg>
);
export const MailIcon = (p: P) => (
  <Svg {...p}>
    <rect x="3.5" y="5.5" width="17" height="13" rx="2" />
    <path d="M4 7l8 6 8-6" />
  </Svg>
);
export const CheckIcon = (p: P) => (
  <Svg {...p}>
    <path d="M5 12.5l4.5 4.5L19 7.5" />
  </Svg>
);
export const PaperclipIcon = (p: P) => (
  <Svg {...p}>
    <path d="M20 11.5l-7.8 7.8a4.8 4.8 0 01-6.8-6.8l8.3-8.3a3.2 3.2 0 014.5 4.5l-8.2 8.2a1.6 1.6 0 01-2.3-2.3l7.6-7.6" />
  </Svg>
);
export const RefreshIcon = (p: P) => (
  <Svg {...p}>
    <path d="M19.5 12a7.5 7.5 0 11-2.2-5.3" />
    <path d="M19.5 4.5v4h-4" />
  </Svg>
);
// "Back" in right-to-left points right, toward where reading starts.
export const BackIcon = (p: P) => (
  <Svg {...p}>
    <path d="M5 12h14M13 6l6 6-6 6" />
  </Svg>
);
export const DownloadIcon = (p: P) => (
  <Svg {...p}>
    <path d="M12 4v11M7.5 10.5L12 15l4.5-4.5M5 19.5h14" />
  </Svg>
);

export const TemplateIcon = (p: P) => (
  <Svg {...p}>
    <rect x="4" y="4" width="16" height="16" rx="2" />
    <path d="M4 9h16M9 9v11" />
  </Svg>
);
export const ScheduleIcon = (p: P) => (
  <Svg {...p}>
    <rect x="4" y="5" width="16" height="15" rx="2" />
    <path d="M4 10h16M9 3v4M15 3v4M12 13v3l2 1" />
  </Svg>
);

// Contacts and tasks.
export const PlusIcon = (p: P) => (
  <Svg {...p}>
    <path d="M12 5v14M5 12h14" />
  </Svg>
);
export const GridIcon = (p: P) => (
  <Svg {...p}>
    <rect x="4" y="4" width="6.5" height="6.5" rx="1.2" />
    <rect x="13.5" y="4" width="6.5" height="6.5" rx="1.2" />
    <rect x="4" y="13.5" width="6.5" height="6.5" rx="1.2" />
    <rect x="13.5" y="13.5" width="6.5" height="6.5" rx="1.2" />
  </Svg>
);
export const ListIcon = (p: P) => (
  <Svg {...p}>
    <path d="M9 6h11M9 12h11M9 18h11" />
    <circle cx="5" cy="6" r="0.9" />
    <circle cx="5" cy="12" r="0.9" />
    <circle cx="5" cy="18" r="0.9" />
  </Svg>
);
export const UploadIcon = (p: P) => (
  <Svg {...p}>
    <path d="M12 16V5M7.5 9.5L12 5l4.5 4.5M5 19.5h14" />
  </Svg>
);
// A checklist: the tasks page.
export const TasksIcon = (p: P) => (
  <Svg {...p}>
    <path d="M4 6.5l1.8 1.8L9 5M4 12.5l1.8 1.8L9 11M4 18.5l1.8 1.8L9 17" />
    <path d="M12 7h8M12 13h8M12 19h8" />
  </Svg>
);
// One person: a saved contact.
export const PersonIcon = (p: P) => (
  <Svg {...p}>
    <circle cx="12" cy="8.5" r="3.5" />
    <path d="M5 20c.8-3.8 3.5-6 7-6s6.2 2.2 7 6" />
  </Svg>
);

// The rules page.
// A funnel with a check: mail sorted by rules.
export const RulesIcon = (p: P) => (
  <Svg {...p}>
    <path d="M3.5 5h13l-5 6.5V17l-3-1.5v-4z" />
    <path d="M14.5 17.5l2 2 4-4.5" />
  </Svg>
);
export const ArrowUpIcon = (p: P) => (
  <Svg {...p}>
    <path d="M12 19V5M6.5 10.5L12 5l5.5 5.5" />
  </Svg>
);
export const ArrowDownIcon = (p: P) => (
  <Svg {...p}>
    <path d="M12 5v14M6.5 13.5L12 19l5.5-5.5" />
  </Svg>
);
// "Run now": a play triangle (not mirrored in right-to-left, as media controls are not).
export const PlayIcon = (p: P) => (
  <Svg {...p}>
    <path d="M7 5.5v13L17.5 12z" />
  </Svg>
);
