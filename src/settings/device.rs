//! Who made a settings change, as the other sessions and the history show it: the user's name
//! and the device, read from the browser's User-Agent (a label, not a security claim).

/// "Chrome, Linux" from a User-Agent; None when nothing is recognised.
pub fn device_label(user_agent: &str) -> Option<String> {
    let ua = user_agent;
    // Order matters: Edge and Opera say "Chrome" too, Chrome says "Safari".
    let browser = [
        ("Edg/", "Edge"),
        ("OPR/", "Opera"),
        ("Firefox/", "Firefox"),
        ("SamsungBrowser/", "Samsung Internet"),
        ("Chrome/", "Chrome"),
        ("Chromium/", "Chromium"),
        ("Safari/", "Safari"),
    ]
    .iter()
    .find(|(needle, _)| ua.contains(needle))
    .map(|(_, name)| *name);
    let os = [
        ("Android", "Android"),
        ("iPhone", "iOS"),
        ("iPad", "iPadOS"),
        ("Windows", "Windows"),
        ("Mac OS X", "macOS"),
        ("CrOS", "ChromeOS"),
        ("Linux", "Linux"),
    ]
    .iter()
    .find(|(needle, _)| ua.contains(needle))
    .map(|(_, name)| *name);
    match (browser, os) {
        (Some(b), Some(o)) => Some(format!("{b}, {o}")),
        (Some(one), None) | (None, Some(one)) => Some(one.to_string()),
        (None, None) => None,
    }
}

/// `changedBy`: "Dana (Chrome, Linux)", or the name alone when the device is unknown.
pub fn changed_by(user_name: &str, user_agent: &str) -> String {
    match device_label(user_agent) {
        Some(device) => format!("{user_name} ({device})"),
        None => user_name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_browsers_are_named() {
        let chrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
        assert_eq!(device_label(chrome).unwrap(), "Chrome, Linux");
        let edge = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0";
        assert_eq!(device_label(edge).unwrap(), "Edge, Windows");
        let iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
        assert_eq!(device_label(iphone).unwrap(), "Safari, iOS");
        let firefox = "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0";
        assert_eq!(device_label(firefox).unwrap(), "Firefox, Android");
        assert_eq!(device_label("curl/8.0"), None);
        assert_eq!(changed_by("דנה", "curl/8.0"), "דנה");
        assert_eq!(changed_by("דנה", chrome), "דנה (Chrome, Linux)");
    }
}
