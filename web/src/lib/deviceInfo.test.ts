import { afterEach, describe, expect, it } from 'vitest';
import {
  browserFromUserAgent,
  detectPlatform,
  formatRatio,
  parseScale,
  percent,
  platformFromHint,
  platformFromUserAgent,
  readUiScale,
} from './deviceInfo';

// Real user-agent strings, one per platform and browser the card names.
const UA = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36 Edg/125.0.2535.67',
  operaWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/110.0.0.0',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  firefoxUbuntu: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:115.0) Gecko/20100101 Firefox/115.0',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  chromeMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  chromeIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
  firefoxIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/127.0 Mobile/15E148 Safari/605.1.15',
  edgeIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 EdgiOS/125.2535.60 Mobile/15E148 Safari/605.1.15',
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.71 Mobile Safari/537.36',
  chromeOs:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  edgeLegacy:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19045',
  headlessChrome:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36',
  jsdom: 'Mozilla/5.0 (linux) AppleWebKit/537.36 (KHTML, like Gecko) jsdom/27.4.0',
  curl: 'curl/8.5.0',
};

describe('platformFromUserAgent', () => {
  it.each([
    [UA.chromeWindows, 'Windows'],
    [UA.edgeWindows, 'Windows'],
    [UA.firefoxLinux, 'Linux'],
    [UA.firefoxUbuntu, 'Linux'],
    [UA.safariMac, 'macOS'],
    [UA.chromeMac, 'macOS'],
    [UA.safariIphone, 'iOS'],
    [UA.chromeIphone, 'iOS'],
    [UA.chromeAndroid, 'Android'],
    [UA.chromeOs, 'ChromeOS'],
  ])('%s → %s', (ua, platform) => {
    expect(platformFromUserAgent(ua)).toBe(platform);
  });

  it('takes a "Mac" with a touch screen for an iPad (iPadOS asks for desktop sites)', () => {
    expect(platformFromUserAgent(UA.safariMac, 5)).toBe('iOS');
    expect(platformFromUserAgent(UA.safariMac, 0)).toBe('macOS');
  });

  it('is null when the agent names no platform', () => {
    expect(platformFromUserAgent(UA.curl)).toBeNull();
    expect(platformFromUserAgent('')).toBeNull();
  });
});

describe('platformFromHint / detectPlatform', () => {
  it('reads the Client Hints platform names', () => {
    expect(platformFromHint('macOS')).toBe('macOS');
    expect(platformFromHint('Windows')).toBe('Windows');
    expect(platformFromHint('Chrome OS')).toBe('ChromeOS');
    expect(platformFromHint('Chromium OS')).toBe('ChromeOS');
    expect(platformFromHint('Android')).toBe('Android');
    expect(platformFromHint('Unknown')).toBeNull();
    expect(platformFromHint('')).toBeNull();
    expect(platformFromHint(undefined)).toBeNull();
  });

  it('prefers the hint, and falls back to the user agent when it says nothing useful', () => {
    expect(detectPlatform(UA.chromeWindows, 'Linux')).toBe('Linux');
    expect(detectPlatform(UA.chromeWindows, 'Unknown')).toBe('Windows');
    expect(detectPlatform(UA.chromeWindows, undefined)).toBe('Windows');
  });
});

describe('browserFromUserAgent', () => {
  it.each([
    [UA.chromeWindows, 'Chrome', 126],
    [UA.edgeWindows, 'Edge', 125],
    [UA.edgeLegacy, 'Edge', 18],
    [UA.edgeIphone, 'Edge', 125],
    [UA.operaWindows, 'Opera', 110],
    [UA.firefoxLinux, 'Firefox', 127],
    [UA.firefoxIphone, 'Firefox', 127],
    [UA.safariMac, 'Safari', 17],
    [UA.safariIphone, 'Safari', 17],
    [UA.chromeIphone, 'Chrome', 126],
    [UA.chromeAndroid, 'Chrome', 126],
    [UA.chromeOs, 'Chrome', 126],
    [UA.headlessChrome, 'Chrome', 140],
  ])('%s → %s %i', (ua, name, version) => {
    expect(browserFromUserAgent(ua)).toEqual({ name, version });
  });

  it('is null for an agent that is none of them', () => {
    expect(browserFromUserAgent(UA.jsdom)).toBeNull();
    expect(browserFromUserAgent(UA.curl)).toBeNull();
  });
});

describe('scale helpers', () => {
  afterEach(() => {
    for (const p of ['--app-scale', '--font-scale', '--icon-scale']) document.documentElement.style.removeProperty(p);
  });

  it('parses a factor, refusing empty, zero, negative and non-numbers', () => {
    expect(parseScale(' 0.85 ')).toBe(0.85);
    expect(parseScale('1')).toBe(1);
    expect(parseScale('')).toBeNull();
    expect(parseScale(null)).toBeNull();
    expect(parseScale('0')).toBeNull();
    expect(parseScale('-1')).toBeNull();
    expect(parseScale('big')).toBeNull();
  });

  it('reads the three custom properties from the root', () => {
    const root = document.documentElement;
    root.style.setProperty('--app-scale', '0.95');
    root.style.setProperty('--font-scale', '1');
    expect(readUiScale()).toEqual({ app: 0.95, font: 1, icon: null });
  });

  it('formats percentages and pixel ratios', () => {
    expect(percent(0.85)).toBe('85%');
    expect(percent(1.1)).toBe('110%');
    expect(percent(1)).toBe('100%');
    expect(formatRatio(2)).toBe('2');
    expect(formatRatio(1.5)).toBe('1.5');
    expect(formatRatio(1.3333333)).toBe('1.33');
  });
});
