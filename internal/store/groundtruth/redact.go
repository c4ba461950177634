package store

import (
	"net/url"
	"strings"
)

// redact returns location with any URL password masked, for error messages.
func redact(location string) string {
	u, err := url.Parse(location)
	if err == nil {
		if _, has := u.User.Password(); has {
			return u.Redacted()
		}
		return location
	}
	// Unparsable: hide whatever credentials sit between "://" and "@".
	scheme, rest, ok := strings.Cut(location, "://")
	if at := strings.LastIndex(rest, "@"); ok && at >= 0 {
		return scheme + "://xxxxx@" + rest[at+1:]
	}
	return location
}
