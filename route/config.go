package route

import (
	"bytes"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// ParseConfig decodes routes data (findings/routes.yaml) strictly.
func ParseConfig(data []byte, name string) (*Config, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var c Config
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("routes data %s: %w", name, err)
	}
	if len(c.Inputs.Model) == 0 || c.Definitions.Routing == "" || c.Definitions.Registry == "" || c.Definitions.Advertising == "" {
		return nil, fmt.Errorf("routes data %s: inputs.model and definitions.routing, registry and advertising are required", name)
	}
	return &c, nil
}
