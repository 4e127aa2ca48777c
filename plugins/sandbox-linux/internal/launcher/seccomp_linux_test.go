package launcher

import "testing"

func TestBuildFilter_assembles(t *testing.T) {
	for _, o := range []filterOptions{{}, {networkOff: true}, {networkOff: true, denyInet: true, selfOnlyPriority: true}} {
		prog, err := buildFilter(o)
		if err != nil {
			t.Fatalf("buildFilter(%+v): %v", o, err)
		}
		if len(prog) < len(deniedSyscalls)+8 || len(prog) > 255 {
			t.Errorf("buildFilter(%+v) has %d instructions", o, len(prog))
		}
	}
}

func TestAsm_undefinedLabel(t *testing.T) {
	a := &asm{}
	a.ld(0)
	a.jeq(1, "nowhere", "")
	a.ret(0)
	if _, err := a.assemble(); err == nil {
		t.Error("assemble accepted a jump to an undefined label")
	}
}

func TestBuildNotifyFilter_assembles(t *testing.T) {
	for _, o := range []notifyOptions{{}, {listen: true}, {listen: true, networkOff: true}} {
		prog, err := buildNotifyFilter(o)
		if err != nil {
			t.Fatalf("buildNotifyFilter(%+v): %v", o, err)
		}
		if len(prog) < len(reportedSyscalls)+4 || len(prog) > 255 {
			t.Errorf("buildNotifyFilter(%+v) has %d instructions", o, len(prog))
		}
	}
}
