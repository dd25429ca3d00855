// The compose toolbar's icons. They live with compose (not in components/icons.tsx) so they are
// in the compose chunk, loaded only with the compose page, and not in the bundle every page loads.

import { Svg, type P } from '../../components/icons';

export const BoldIcon = (p: P) => (
  <Svg {...p}>
    <path d="M7 5h6a3.5 3.5 0 010 7H7zM7 12h7a3.5 3.5 0 010 7H7z" strokeWidth={2.4} />
  </Svg>
);
export const ItalicIcon = (p: P) => (
  <Svg {...p}>
    <path d="M10 5h8M6 19h8M14.5 5l-5 14" />
  </Svg>
);
export const UnderlineIcon = (p: P) => (
  <Svg {...p}>
    <path d="M7 4v7a5 5 0 0010 0V4M5 20h14" />
  </Svg>
);
export const LinkIcon = (p: P) => (
  <Svg {...p}>
    <path d="M10 14a4 4 0 005.7 0l3-3a4 4 0 00-5.7-5.7l-1 1" />
    <path d="M14 10a4 4 0 00-5.7 0l-3 3a4 4 0 005.7 5.7l1-1" />
  </Svg>
);
export const BulletsIcon = (p: P) => (
  <Svg {...p}>
    <path d="M10 6h10M10 12h10M10 18h10" />
    <circle cx="5" cy="6" r="1" fill="currentColor" />
    <circle cx="5" cy="12" r="1" fill="currentColor" />
    <circle cx="5" cy="18" r="1" fill="currentColor" />
  </Svg>
);
export const AlignRightIcon = (p: P) => (
  <Svg {...p}>
    <path d="M4 6h16M10 10h10M4 14h16M10 18h10" />
  </Svg>
);
export const AlignCenterIcon = (p: P) => (
  <Svg {...p}>
    <path d="M4 6h16M7 10h10M4 14h16M7 18h10" />
  </Svg>
);
export const AlignLeftIcon = (p: P) => (
  <Svg {...p}>
    <path d="M4 6h16M4 10h10M4 14h16M4 18h10" />
  </Svg>
);
export const NumbersIcon = (p: P) => (
  <Svg {...p}>
    <path d="M10 6h10M10 12h10M10 18h10" />
    <path d="M4 4.5l1.5-1v5M3.5 14a1.5 1.5 0 013 .3c0 1-3 2.2-3 3.7h3" strokeWidth={1.4} />
  </Svg>
);
export const QuoteIcon = (p: P) => (
  <Svg {...p}>
    <path d="M5 5v14M9 8h10M9 12h10M9 16h6" />
  </Svg>
);
/** Undo and redo: curved arrows, drawn for a left-to-right reading; the toolbar mirrors them in RTL. */
export const UndoIcon = (p: P) => (
  <Svg {...p}>
    <path d="M9 14L4 9l5-5" />
    <path d="M4 9h10a6 6 0 010 12h-3" />
  </Svg>
);
export const RedoIcon = (p: P) => (
  <Svg {...p}>
    <path d="M15 14l5-5-5-5" />
    <path d="M20 9H10a6 6 0 000 12h3" />
  </Svg>
);
/** Left-to-right: a paragraph mark with an arrow pointing right. */
export const DirectionIcon = (p: P) => (
  <Svg {...p}>
    <path d="M10 4v10M14 4v10M16 4H9.5a3 3 0 000 6H10" />
    <path d="M4 19h15M16 16l3 3-3 3" />
  </Svg>
);
