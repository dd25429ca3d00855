// Icons only the compose toolbar uses, drawn like components/icons (24-unit inline SVG, sized by
// the .icon class, hidden from assistive technology: each button carries its own label).

import type { ReactNode } from 'react';

function Svg({ children }: { children: ReactNode }) {
  return (
    <svg
      className="icon"
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

export const BoldIcon = () => (
  <Svg>
    <path d="M7 5h6a3.5 3.5 0 010 7H7zM7 12h7a3.5 3.5 0 010 7H7z" strokeWidth={2.4} />
  </Svg>
);
export const ItalicIcon = () => (
  <Svg>
    <path d="M10 5h8M6 19h8M14.5 5l-5 14" />
  </Svg>
);
export const UnderlineIcon = () => (
  <Svg>
    <path d="M7 4v7a5 5 0 0010 0V4M5 20h14" />
  </Svg>
);
export const LinkIcon = () => (
  <Svg>
    <path d="M10 14a4 4 0 005.7 0l3-3a4 4 0 00-5.7-5.7l-1 1" />
    <path d="M14 10a4 4 0 00-5.7 0l-3 3a4 4 0 005.7 5.7l1-1" />
  </Svg>
);
export const BulletsIcon = () => (
  <Svg>
    <path d="M10 6h10M10 12h10M10 18h10" />
    <circle cx="5" cy="6" r="1" fill="currentColor" />
    <circle cx="5" cy="12" r="1" fill="currentColor" />
    <circle cx="5" cy="18" r="1" fill="currentColor" />
  </Svg>
);
export const AlignRightIcon = () => (
  <Svg>
    <path d="M4 6h16M10 10h10M4 14h16M10 18h10" />
  </Svg>
);
export const AlignCenterIcon = () => (
  <Svg>
    <path d="M4 6h16M7 10h10M4 14h16M7 18h10" />
  </Svg>
);
export const AlignLeftIcon = () => (
  <Svg>
    <path d="M4 6h16M4 10h10M4 14h16M4 18h10" />
  </Svg>
);
/** Left-to-right: a paragraph mark with an arrow pointing right. */
export const DirectionIcon = () => (
  <Svg>
    <path d="M10 4v10M14 4v10M16 4H9.5a3 3 0 000 6H10" />
    <path d="M4 19h15M16 16l3 3-3 3" />
  </Svg>
);
export const TemplateIcon = () => (
  <Svg>
    <rect x="4" y="4" width="16" height="16" rx="2" />
    <path d="M4 9h16M9 9v11" />
  </Svg>
);
export const ScheduleIcon = () => (
  <Svg>
    <rect x="4" y="5" width="16" height="15" rx="2" />
    <path d="M4 10h16M9 3v4M15 3v4M12 13v3l2 1" />
  </Svg>
);
