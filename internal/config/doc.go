// Package config loads airlock's configuration in layers with koanf:
// built-in defaults, /etc/airlock/config.toml, the user's config.toml, the
// .airlock/config.toml of a project the user marked trusted, AIRLOCK_*
// environment variables (nested keys joined with "__") and finally flags.
// Later layers win. Every layer is validated on its own before it is merged,
// so an unknown key or a bad value is reported with the file, the key and
// the line it came from. The resolved [Config] remembers which layer set
// each key, for `airlock config`.
package config
