//! Where Stripe sends the browser back to: pages of this site only, for the checkouts (personal
//! and team) and the billing portals (personal and team).

use closewise_domain::limits::same_origin;

/// Whether every address is a page of `site`.
pub fn on_site(site: &str, urls: &[&str]) -> bool {
    urls.iter().all(|url| same_origin(site, url))
}

/// Where a billing portal's "back" link goes, as the caller asked it.
#[derive(Clone, Copy, Debug)]
pub struct PortalReturn<'a> {
    /// The caller's `return_url`, if they sent one.
    pub requested: Option<&'a str>,
    /// The site's base URL.
    pub site: &'a str,
    /// The page of the site when the caller asked for none (`/dashboard`, `/team`).
    pub default_path: &'a str,
}

impl PortalReturn<'_> {
    /// The address, or `None` when the one asked for is not a page of the site.
    pub fn url(&self) -> Option<String> {
        let url = self.requested.map_or_else(
            || format!("{}{}", self.site, self.default_path),
            str::to_owned,
        );
        on_site(self.site, &[&url]).then_some(url)
    }
}

#[cfg(test)]
mod tests {
    use super::PortalReturn;

    #[test]
    fn a_portal_goes_back_to_a_page_of_the_site() {
        let site = "https://closewise.example";
        let back = |requested| PortalReturn {
            requested,
            site,
            default_path: "/team",
        };
        assert_eq!(
            back(None).url().as_deref(),
            Some("https://closewise.example/team")
        );
        assert_eq!(
            back(Some("https://closewise.example/settings"))
                .url()
                .as_deref(),
            Some("https://closewise.example/settings")
        );
        assert_eq!(back(Some("https://evil.example/")).url(), None);
        assert_eq!(back(Some("//evil.example/")).url(), None);
    }
}
