// "מידע על המכשיר" (spec 001 §2's side column: platform and screen resolution), plus the browser
// and the UI scale in use: the three factors session/scale.ts sets as CSS custom properties on <html>,
// as percentages, and the preset they make up if any. It follows changes while open: a window
// moved to another screen (resize) or a new scale chosen in the top bar (the root's style).

import { useEffect, useState } from 'react';
import { matchPreset } from '../../../session/scale';
import { heSettings } from '../../../i18n/settings';
import { heScale } from '../../../i18n/scale';
import '../../../styles/settings-cards.css';
import {
  browserFromUserAgent,
  detectPlatform,
  formatRatio,
  percent,
  readUiScale,
  type Browser,
  type Platform,
  type UiScale,
} from '../../../lib/deviceInfo';
import { Card } from '../../../components/Card';
import { Fact } from '../../../components/Fact';

const t = heSettings.cards.device;

interface Device {
  platform: Platform | null;
  browser: Browser | null;
  width: number;
  height: number;
  pixelRatio: number;
  scale: UiScale;
}

type NavigatorWithHints = Navigator & { userAgentData?: { platform?: string } };

function readDevice(): Device {
  const nav = navigator as NavigatorWithHints;
  return {
    platform: detectPlatform(nav.userAgent, nav.userAgentData?.platform, nav.maxTouchPoints ?? 0),
    browser: browserFromUserAgent(nav.userAgent),
    width: window.screen?.width ?? 0,
    height: window.screen?.height ?? 0,
    pixelRatio: window.devicePixelRatio || 1,
    scale: readUiScale(),
  };
}

function useDevice(): Device {
  const [device, setDevice] = useState(readDevice);
  useEffect(() => {
    const update = () => setDevice(readDevice());
    window.addEventListener('resize', update);
    const observer = new MutationObserver(update);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
    return () => {
      window.removeEventListener('resize', update);
      observer.disconnect();
    };
  }, []);
  return device;
}

export function DeviceInfoCard() {
  const d = useDevice();
  const { app, font, icon } = d.scale;
  const preset = app !== null && font !== null && icon !== null ? matchPreset({ app, font, icon }) : null;
  const known = app !== null || font !== null || icon !== null;

  return (
    <Card id="device-info" title={t.title} testId="device-info">
      <dl className="facts device-facts">
        <Fact label={t.platform} testId="device-platform">{d.platform ? <bdi dir="ltr">{d.platform}</bdi> : t.unknown}</Fact>
        <Fact label={t.browser} testId="device-browser">
          {d.browser ? (
            <bdi dir="ltr">{d.browser.version !== null ? `${d.browser.name} ${d.browser.version}` : d.browser.name}</bdi>
          ) : (
            t.unknown
          )}
        </Fact>
        <Fact label={t.screen} testId="device-screen">
          {d.width > 0 && d.height > 0 ? (
            <>
              <bdi dir="ltr">
                {d.width} × {d.height}
              </bdi>
              {d.pixelRatio !== 1 && (
                <span className="device-facts__extra" data-testid="device-pixel-ratio">
                  {' '}
                  {t.pixelRatio(formatRatio(d.pixelRatio))}
                </span>
              )}
            </>
          ) : (
            t.unknown
          )}
        </Fact>
        <Fact label={t.scale} testId="device-scale">
          {known ? (
            <>
              <span data-testid="device-scale-preset">{preset ? heScale.presets[preset] : t.custom}</span>
              <ul className="device-scale" aria-label={t.scaleParts}>
                <ScalePart label={t.scaleApp} value={app} testId="device-scale-app" />
                <ScalePart label={t.scaleFont} value={font} testId="device-scale-font" />
                <ScalePart label={t.scaleIcon} value={icon} testId="device-scale-icon" />
              </ul>
            </>
          ) : (
            t.unknown
          )}
        </Fact>
      </dl>
    </Card>
  );
}

function ScalePart({ label, value, testId }: { label: string; value: number | null; testId: string }) {
  return (
    <li>
      {label}{' '}
      <bdi dir="ltr" data-testid={testId}>
        {value !== null ? percent(value) : t.unknownShort}
      </bdi>
    </li>
  );
}
