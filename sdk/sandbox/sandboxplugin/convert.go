package sandboxplugin

import (
	"github.com/airlock-dev/airlock/sdk/internal/pb/sandboxv1"
	"github.com/airlock-dev/airlock/sdk/sandbox"
)

// Conversions between the public types and the generated ones. Enum values
// share numbers on both sides by construction, so they convert directly.

func infoToProto(i *sandbox.Info) *sandboxv1.InfoResponse {
	return &sandboxv1.InfoResponse{Name: i.Name, Version: i.Version, Capabilities: i.Capabilities, Description: i.Description}
}

func infoFromProto(p *sandboxv1.InfoResponse) *sandbox.Info {
	return &sandbox.Info{Name: p.GetName(), Version: p.GetVersion(), Capabilities: p.GetCapabilities(), Description: p.GetDescription()}
}

func probeToProto(r *sandbox.ProbeResult) *sandboxv1.ProbeResponse {
	out := &sandboxv1.ProbeResponse{Usable: r.Usable, Mode: r.Mode, Lost: r.Lost, Remedy: r.Remedy}
	for _, f := range r.Features {
		out.Features = append(out.Features, &sandboxv1.Feature{Name: f.Name, Available: f.Available, Detail: f.Detail})
	}
	return out
}

func probeFromProto(p *sandboxv1.ProbeResponse) *sandbox.ProbeResult {
	out := &sandbox.ProbeResult{Usable: p.GetUsable(), Mode: p.GetMode(), Lost: p.GetLost(), Remedy: p.GetRemedy()}
	for _, f := range p.GetFeatures() {
		out.Features = append(out.Features, sandbox.Feature{Name: f.GetName(), Available: f.GetAvailable(), Detail: f.GetDetail()})
	}
	return out
}

func prepareToProto(r *sandbox.PrepareRequest) *sandboxv1.PrepareRequest {
	return &sandboxv1.PrepareRequest{
		Command: &sandboxv1.Command{Argv: r.Command.Argv, Cwd: r.Command.Cwd, Env: r.Command.Env},
		Policy: &sandboxv1.Policy{
			Mode:           sandboxv1.Mode(r.Policy.Mode),
			WritableRoots:  r.Policy.WritableRoots,
			DenyRead:       r.Policy.DenyRead,
			ProtectedNames: r.Policy.ProtectedNames,
			Network:        sandboxv1.Network(r.Policy.Network),
			AllowDegraded:  r.Policy.AllowDegraded,
		},
		Tty: r.TTY,
	}
}

func prepareFromProto(p *sandboxv1.PrepareRequest) *sandbox.PrepareRequest {
	c, pol := p.GetCommand(), p.GetPolicy()
	return &sandbox.PrepareRequest{
		Command: sandbox.Command{Argv: c.GetArgv(), Cwd: c.GetCwd(), Env: c.GetEnv()},
		Policy: sandbox.Policy{
			Mode:           sandbox.Mode(pol.GetMode()),
			WritableRoots:  pol.GetWritableRoots(),
			DenyRead:       pol.GetDenyRead(),
			ProtectedNames: pol.GetProtectedNames(),
			Network:        sandbox.Network(pol.GetNetwork()),
			AllowDegraded:  pol.GetAllowDegraded(),
		},
		TTY: p.GetTty(),
	}
}

func specToProto(s *sandbox.LaunchSpec) *sandboxv1.LaunchSpec {
	out := &sandboxv1.LaunchSpec{Argv: s.Argv, Env: s.Env, Cwd: s.Cwd,
		Template: s.Template, CommandIndex: int32(s.CommandIndex), EnvOverrides: s.EnvOverrides}
	for _, f := range s.ExtraFiles {
		out.ExtraFiles = append(out.ExtraFiles, sandboxv1.ExtraFile(f))
	}
	if s.Namespaces != nil {
		out.Namespaces = &sandboxv1.Namespaces{Kinds: s.Namespaces.Kinds, AmbientCaps: s.Namespaces.AmbientCaps}
	}
	return out
}

func specFromProto(p *sandboxv1.LaunchSpec) sandbox.LaunchSpec {
	out := sandbox.LaunchSpec{Argv: p.GetArgv(), Env: p.GetEnv(), Cwd: p.GetCwd(),
		Template: p.GetTemplate(), CommandIndex: int(p.GetCommandIndex()), EnvOverrides: p.GetEnvOverrides()}
	for _, f := range p.GetExtraFiles() {
		out.ExtraFiles = append(out.ExtraFiles, sandbox.ExtraFile(f))
	}
	if n := p.GetNamespaces(); n != nil {
		out.Namespaces = &sandbox.Namespaces{Kinds: n.GetKinds(), AmbientCaps: n.GetAmbientCaps()}
	}
	return out
}

func explainToProto(r *sandbox.ExplainRequest) *sandboxv1.ExplainRequest {
	return &sandboxv1.ExplainRequest{
		Prepared:   prepareToProto(&r.Prepared),
		ExitCode:   int32(r.ExitCode),
		Signal:     int32(r.Signal),
		OutputTail: r.OutputTail,
		Report:     r.Report,
	}
}

func explainFromProto(p *sandboxv1.ExplainRequest) *sandbox.ExplainRequest {
	out := &sandbox.ExplainRequest{ExitCode: int(p.GetExitCode()), Signal: int(p.GetSignal()), OutputTail: p.GetOutputTail(), Report: p.GetReport()}
	if p.GetPrepared() != nil {
		out.Prepared = *prepareFromProto(p.GetPrepared())
	}
	return out
}

func explainRespToProto(r *sandbox.ExplainResponse) *sandboxv1.ExplainResponse {
	out := &sandboxv1.ExplainResponse{}
	for _, d := range r.Denials {
		out.Denials = append(out.Denials, &sandboxv1.Denial{
			Kind: sandboxv1.DenialKind(d.Kind), Path: d.Path, Host: d.Host, Port: int32(d.Port),
			Operation: d.Operation, Syscall: d.Syscall, Guessed: d.Guessed, Detail: d.Detail,
		})
	}
	return out
}

func explainRespFromProto(p *sandboxv1.ExplainResponse) *sandbox.ExplainResponse {
	out := &sandbox.ExplainResponse{}
	for _, d := range p.GetDenials() {
		out.Denials = append(out.Denials, sandbox.Denial{
			Kind: sandbox.DenialKind(d.GetKind()), Path: d.GetPath(), Host: d.GetHost(), Port: int(d.GetPort()),
			Operation: d.GetOperation(), Syscall: d.GetSyscall(), Guessed: d.GetGuessed(), Detail: d.GetDetail(),
		})
	}
	return out
}
