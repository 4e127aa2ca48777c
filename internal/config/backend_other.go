//go:build !linux && !darwin

package config

const defaultBackend = "none"
