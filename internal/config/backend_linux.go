package config

const defaultBackend = "sandbox-linux"
