import { act, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyScale } from '../../../session/scale';
import { DeviceInfoCard } from './DeviceInfoCard';

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0';

function device({
  ua,
  hint,
  width = 1920,
  height = 1080,
  ratio = 1,
}: {
  ua: string;
  hint?: string;
  width?: number;
  height?: number;
  ratio?: number;
}) {
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(ua);
  if (hint !== undefined) {
    Object.defineProperty(navigator, 'userAgentData', { value: { platform: hint }, configurable: true });
  }
  vi.spyOn(window.screen, 'width', 'get').mockReturnValue(width);
  vi.spyOn(window.screen, 'height', 'get').mockReturnValue(height);
  vi.spyOn(window, 'devicePixelRatio', 'get').mockReturnValue(ratio);
}

function clearScale() {
  for (const p of ['--app-scale', '--font-scale', '--icon-scale']) document.documentElement.style.removeProperty(p);
}

describe('DeviceInfoCard', () => {
  beforeEach(clearScale);
  afterEach(() => {
    clearScale();
    delete (navigator as { userAgentData?: unknown }).userAgentData;
  });

  it('shows the platform, browser, screen and the scale preset in use', () => {
    device({ ua: CHROME_WINDOWS });
    applyScale({ app: 0.85, font: 0.9, icon: 0.9 });
    render(<DeviceInfoCard />);

    const card = screen.getByTestId('device-info');
    expect(within(card).getByRole('heading', { level: 2, name: 'מידע על המכשיר' })).toBeInTheDocument();
    expect(screen.getByTestId('device-platform')).toHaveTextContent('Windows');
    expect(screen.getByTestId('device-browser')).toHaveTextContent('Chrome 126');
    expect(screen.getByTestId('device-screen')).toHaveTextContent('1920 × 1080');
    // A pixel ratio of 1 is not mentioned.
    expect(screen.queryByTestId('device-pixel-ratio')).not.toBeInTheDocument();
    expect(screen.getByTestId('device-scale-preset')).toHaveTextContent('רגיל');
    expect(screen.getByTestId('device-scale-app')).toHaveTextContent('85%');
    expect(screen.getByTestId('device-scale-font')).toHaveTextContent('90%');
    expect(screen.getByTestId('device-scale-icon')).toHaveTextContent('90%');
  });

  it('prefers the Client Hints platform, shows a pixel ratio other than 1 and a custom scale', () => {
    device({ ua: FIREFOX_LINUX, hint: 'macOS', width: 1440, height: 900, ratio: 2 });
    applyScale({ app: 1, font: 1.1, icon: 0.9 });
    render(<DeviceInfoCard />);
    expect(screen.getByTestId('device-platform')).toHaveTextContent('macOS');
    expect(screen.getByTestId('device-browser')).toHaveTextContent('Firefox 127');
    expect(screen.getByTestId('device-screen')).toHaveTextContent('1440 × 900');
    expect(screen.getByTestId('device-pixel-ratio')).toHaveTextContent('יחס פיקסלים 2');
    expect(screen.getByTestId('device-scale-preset')).toHaveTextContent('מותאם אישית');
    expect(screen.getByTestId('device-scale-app')).toHaveTextContent('100%');
    expect(screen.getByTestId('device-scale-font')).toHaveTextContent('110%');
  });

  it('follows a new scale and a resize while open', async () => {
    device({ ua: CHROME_WINDOWS });
    applyScale({ app: 0.85, font: 0.9, icon: 0.9 });
    render(<DeviceInfoCard />);
    expect(screen.getByTestId('device-scale-preset')).toHaveTextContent('רגיל');

    applyScale({ app: 1.1, font: 1.1, icon: 1.1 });
    await waitFor(() => expect(screen.getByTestId('device-scale-preset')).toHaveTextContent('גדול'));
    expect(screen.getByTestId('device-scale-app')).toHaveTextContent('110%');

    vi.spyOn(window.screen, 'width', 'get').mockReturnValue(2560);
    vi.spyOn(window.screen, 'height', 'get').mockReturnValue(1440);
    vi.spyOn(window, 'devicePixelRatio', 'get').mockReturnValue(1.5);
    act(() => {
      window.dispatchEvent(new Event('resize'));
    });
    expect(screen.getByTestId('device-screen')).toHaveTextContent('2560 × 1440');
    expect(screen.getByTestId('device-pixel-ratio')).toHaveTextContent('1.5');
  });

  it('says "unknown" for what it cannot tell', () => {
    device({ ua: 'curl/8.5.0', width: 0, height: 0 });
    render(<DeviceInfoCard />);
    expect(screen.getByTestId('device-platform')).toHaveTextContent('לא ידוע');
    expect(screen.getByTestId('device-browser')).toHaveTextContent('לא ידוע');
    expect(screen.getByTestId('device-screen')).toHaveTextContent('לא ידוע');
    expect(screen.getByTestId('device-scale')).toHaveTextContent('לא ידוע');
  });
});
