// The invitation card's calendar icon (the app's icon frame, components/icons `Svg`).

import { Svg, type P } from '../../components/icons';

export const CalendarIcon = (p: P) => (
  <Svg {...p}>
    <rect x="3.5" y="5" width="17" height="15" rx="2" />
    <path d="M3.5 10h17M8 3v4M16 3v4" />
  </Svg>
);
