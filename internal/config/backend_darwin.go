package config

const defaultBackend = "sandbox-macos"
