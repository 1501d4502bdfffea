"""Browser tests of the venue display in real headless Chromium (Debian's, driven by Playwright)."""
