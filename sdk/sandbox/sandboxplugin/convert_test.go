package sandboxplugin

import (
	"reflect"
	"testing"

	"github.com/airlock-dev/airlock/sdk/sandbox"
)

// Every field of a launch spec survives the trip over gRPC.
func TestSpecProtoRoundTrip(t *testing.T) {
	for _, spec := range []sandbox.LaunchSpec{
		{Argv: []string{"/bin/true"}, Cwd: "/"},
		{Argv: []string{"/l", "launch", "{}", "ls"}, Env: []string{"A=1"}, Cwd: "/w",
			ExtraFiles: []sandbox.ExtraFile{sandbox.ExtraFileReportPipe}, Template: true, CommandIndex: 3,
			EnvOverrides: []string{"TMPDIR=/tmp"},
			Namespaces:   &sandbox.Namespaces{Kinds: []string{"user", "pid"}, AmbientCaps: []string{"CAP_SYS_ADMIN"}}},
	} {
		if got := specFromProto(specToProto(&spec)); !reflect.DeepEqual(got, spec) {
			t.Errorf("round trip =\n%+v\nwant\n%+v", got, spec)
		}
	}
}
