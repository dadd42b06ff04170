package rules

import (
	"strings"

	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/shell"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// infraVerb is one destructive call of an infrastructure, database or
// release tool: the tool's names, the words its operands start with (a
// "*" matches any word, a trailing "*" a prefix), and options of which one
// must be given, when any.
type infraVerb struct {
	tools []string
	words []string
	opts  []string
}

// words returns a command's operands with the options of the generic
// reading dropped; a command through npx, bunx or python -m counts as the
// tool it runs.
func infraWords(c *shell.Command) (string, []string) {
	name, ops := c.Name(), c.Operands()
	switch name {
	case "npx", "bunx", "pnpx", "yarn", "pnpm", "bundle", "poetry", "uv", "pipenv":
		if len(ops) > 0 && (name != "bundle" || ops[0] == "exec") {
			if name == "bundle" || name == "poetry" || name == "uv" || name == "pipenv" {
				ops = tail(ops, 1) // exec, run
			}
			if len(ops) > 0 {
				return strings.TrimPrefix(ops[0], "bin/"), ops[1:]
			}
		}
	case "python", "python3":
		if args := c.Args(); len(args) > 1 && args[0] == "-m" {
			return args[1], tail(args, 2)
		}
		if len(ops) > 0 && ops[0] == "manage.py" {
			return "manage.py", ops[1:]
		}
		if len(ops) > 0 && ops[0] == "artisan" {
			return "artisan", ops[1:]
		}
	case "php":
		if len(ops) > 0 && ops[0] == "artisan" {
			return "artisan", ops[1:]
		}
	}
	return strings.TrimPrefix(name, "bin/"), ops
}

func (v *infraVerb) match(c *shell.Command) bool {
	for _, a := range c.Args() {
		// It shows what it would do; kubectl's --dry-run=none does it.
		if v, ok := strings.CutPrefix(a, "--dry-run"); ok && v != "=none" && v != "=false" || a == "--snapshot" {
			return false
		}
	}
	name, ops := infraWords(c)
	if !contains(v.tools, name) {
		// yarn publish, uv publish: the runner is the tool itself.
		name, ops = strings.TrimPrefix(c.Name(), "bin/"), c.Operands()
	}
	if !contains(v.tools, name) || len(ops) < len(v.words) {
		return false
	}
	for i, w := range v.words {
		op := strings.ToLower(ops[i])
		switch {
		case w == "*":
		case strings.HasSuffix(w, "*"):
			if !strings.HasPrefix(op, strings.TrimSuffix(w, "*")) {
				return false
			}
		case op != w:
			return false
		}
	}
	if len(v.opts) == 0 {
		return true
	}
	for _, o := range v.opts {
		for _, a := range c.Args() {
			if a == o || strings.HasPrefix(a, o+"=") || strings.HasPrefix(o, "-") && !strings.HasPrefix(o, "--") && shell.IsShortFlag(a, o[1]) && len(o) == 2 {
				return true
			}
		}
	}
	return false
}

// platformCLIs are hosting and platform command lines whose destructive
// calls are spelled with a verb word: gh repo delete, vercel remove,
// firebase projects:delete, glab release delete.
var platformCLIs = map[string]bool{"gh": true, "glab": true, "vercel": true, "netlify": true, "wrangler": true, "firebase": true,
	"heroku": true, "fly": true, "flyctl": true, "doctl": true, "supabase": true, "railway": true, "render": true, "linode-cli": true,
	"hcloud": true, "scw": true, "vultr-cli": true, "exoscale": true, "oci": true, "ibmcloud": true, "az": true, "gcloud": true, "aws": true,
	"ssh-add": true, "npm": true, "docker": true, "podman": true, "kubectl": true, "helm": true}

// destructiveVerb reports a verb word that destroys.
func destructiveVerb(w string) bool {
	w = strings.ToLower(w)
	if i := strings.LastIndexByte(w, ':'); i >= 0 {
		w = w[i+1:]
	}
	switch w {
	case "delete", "destroy", "remove", "rm", "purge", "archive", "wipe", "drop", "terminate", "deprovision", "uninstall", "disable", "cancel":
		return true
	}
	return strings.HasPrefix(w, "delete-") || strings.HasPrefix(w, "destroy-") || strings.HasPrefix(w, "terminate-")
}

// httpDelete reports an HTTP DELETE (or a write to branch protection)
// sent by curl, wget or gh api.
func httpDelete(c *shell.Command) bool {
	args := c.Args()
	switch c.Name() {
	case "curl", "wget", "http", "xh", "gh":
		for i, a := range args {
			v := ""
			switch {
			case a == "-X" || a == "--request" || a == "--method":
				if i+1 < len(args) {
					v = args[i+1]
				}
			case strings.HasPrefix(a, "-X"):
				v = a[2:]
			case strings.HasPrefix(a, "--request=") || strings.HasPrefix(a, "--method="):
				v = a[strings.IndexByte(a, '=')+1:]
			}
			if strings.EqualFold(v, "DELETE") {
				return true
			}
			if strings.EqualFold(v, "PUT") && c.Name() == "gh" && strings.Contains(strings.Join(args, " "), "/protection") {
				return true
			}
		}
		if c.Name() == "http" || c.Name() == "xh" {
			return len(args) > 0 && strings.EqualFold(args[0], "DELETE")
		}
	}
	return false
}

func verbsRule(id, reason, suggest string, asks bool, verbs []infraVerb, deny, allow []string) *Rule {
	return &Rule{ID: id, Severity: verdict.High, Asks: asks, Reason: reason, Suggest: suggest, Deny: deny, Allow: allow,
		Match: func(c *shell.Command, e *pathguard.Env) bool {
			for i := range verbs {
				if verbs[i].match(c) {
					return true
				}
			}
			return false
		}}
}

// platformRule catches the verb-spelled deletions of platform CLIs and
// HTTP DELETEs: the pattern, not a list of every subcommand.
func platformRule() *Rule {
	return &Rule{
		ID: "platform.delete", Severity: verdict.High, Reason: "deleting or disabling something on a hosting platform or service (a repository, a secret, a deployment, an index)",
		Suggest: "ask a person to do it",
		Match: func(c *shell.Command, e *pathguard.Env) bool {
			if httpDelete(c) {
				return true
			}
			name, ops := infraWords(c)
			if !platformCLIs[name] || name == "docker" || name == "podman" || name == "kubectl" || name == "helm" || name == "npm" {
				return false
			}
			if name == "ssh-add" {
				return c.Has("-D") || c.Has("-d")
			}
			if name == "gh" && len(ops) > 1 && ops[0] == "pr" && ops[1] == "merge" && contains(c.Args(), "--admin") {
				return true // merging past branch protection
			}
			for i, op := range ops {
				if i == 3 {
					break
				}
				if destructiveVerb(op) {
					return true
				}
			}
			return false
		},
		Deny: []string{"gh repo delete owner/repo --yes", "gh secret delete TOKEN", "glab release delete v1", "vercel remove app --yes", "wrangler delete",
			"firebase projects:delete prod", "gh api -X DELETE repos/o/r", "curl -X DELETE http://localhost:9200/_all", "curl -XDELETE 'http://x/logs-*'",
			"heroku apps:destroy app", "gh workflow disable deploy.yml", "ssh-add -D", "gh run cancel 1"},
		Allow: []string{"gh repo view", "gh pr create", "curl -X POST https://x", "vercel deploy", "gh api repos/o/r", "firebase deploy", "gh secret list", "curl https://example.com"},
	}
}

// infraRules are the calls that destroy infrastructure, data or a machine's
// state, or publish a release: irreversible, and a person's decision.
func infraRules() []*Rule {
	return []*Rule{
		verbsRule("infra.destroy", "destroying infrastructure (terraform destroy, kubectl delete, helm uninstall, cloud deletions)", "plan it, and ask a person to apply it", false,
			[]infraVerb{
				{tools: []string{"terraform", "tofu", "terragrunt"}, words: []string{"destroy"}},
				{tools: []string{"terragrunt"}, words: []string{"run-all", "destroy"}},
				{tools: []string{"terraform", "tofu", "terragrunt"}, words: []string{"apply"}, opts: []string{"-destroy", "-auto-approve", "--auto-approve"}},
				{tools: []string{"terraform", "tofu"}, words: []string{"state", "rm"}},
				{tools: []string{"terraform", "tofu"}, words: []string{"force-unlock"}},
				{tools: []string{"terraform", "tofu"}, words: []string{"workspace", "delete"}},
				{tools: []string{"pulumi"}, words: []string{"destroy"}},
				{tools: []string{"pulumi"}, words: []string{"up"}, opts: []string{"--yes", "-y", "--skip-preview"}},
				{tools: []string{"terraform", "tofu"}, words: []string{"taint"}},
				{tools: []string{"kubectl", "oc"}, words: []string{"taint"}},
				{tools: []string{"helm"}, words: []string{"rollback"}},
				{tools: []string{"docker", "podman"}, words: []string{"network", "prune"}},
				{tools: []string{"aws"}, words: []string{"s3", "mv"}, opts: []string{"--recursive"}},
				{tools: []string{"pulumi"}, words: []string{"stack", "rm"}},
				{tools: []string{"pulumi"}, words: []string{"state", "delete"}},
				{tools: []string{"cdk"}, words: []string{"destroy"}},
				{tools: []string{"sam"}, words: []string{"delete"}},
				{tools: []string{"serverless", "sls"}, words: []string{"remove"}},
				{tools: []string{"kubectl", "oc"}, words: []string{"delete", "ns"}},
				{tools: []string{"kubectl", "oc"}, words: []string{"delete", "namespace*"}},
				{tools: []string{"kubectl", "oc"}, words: []string{"delete"}, opts: []string{"--all", "-A", "--all-namespaces", "-f", "--filename", "-k", "--kustomize", "--force", "-l", "--selector"}},
				{tools: []string{"kubectl", "oc"}, words: []string{"delete", "deploy*"}},
				{tools: []string{"kubectl", "oc"}, words: []string{"delete", "statefulset*"}},
				{tools: []string{"kubectl", "oc"}, words: []string{"delete", "sts"}},
				{tools: []string{"kubectl", "oc"}, words: []string{"delete", "pv*"}},
				{tools: []string{"kubectl", "oc"}, words: []string{"delete", "secret*"}},
				{tools: []string{"kubectl", "oc"}, words: []string{"delete", "svc"}},
				{tools: []string{"kubectl", "oc"}, words: []string{"delete", "service*"}},
				{tools: []string{"kubectl", "oc"}, words: []string{"delete", "crd*"}},
				{tools: []string{"kubectl", "oc"}, words: []string{"delete", "all"}},
				{tools: []string{"kubectl", "oc"}, words: []string{"delete", "deployment*"}},
				{tools: []string{"kubectl", "oc"}, words: []string{"drain"}},
				{tools: []string{"kubectl", "oc"}, words: []string{"replace"}, opts: []string{"--force"}},
				{tools: []string{"kubectl", "oc"}, words: []string{"apply"}, opts: []string{"--prune"}},
				{tools: []string{"kubectl", "oc"}, words: []string{"scale"}, opts: []string{"--replicas=0"}},
				{tools: []string{"helm"}, words: []string{"uninstall"}},
				{tools: []string{"helm"}, words: []string{"delete"}},
				{tools: []string{"aws"}, words: []string{"s3", "rm"}, opts: []string{"--recursive"}},
				{tools: []string{"aws"}, words: []string{"s3", "rb"}},
				{tools: []string{"aws"}, words: []string{"*", "delete-*"}},
				{tools: []string{"aws"}, words: []string{"*", "terminate-*"}},
				{tools: []string{"gcloud"}, words: []string{"*", "*", "delete"}},
				{tools: []string{"gcloud"}, words: []string{"*", "delete"}},
				{tools: []string{"gcloud"}, words: []string{"*", "*", "*", "delete"}},
				{tools: []string{"gsutil"}, words: []string{"rm"}, opts: []string{"-r", "-R"}},
				{tools: []string{"gsutil"}, words: []string{"rsync"}, opts: []string{"-d"}},
				{tools: []string{"gcloud"}, words: []string{"storage", "rm"}},
				{tools: []string{"aws"}, words: []string{"s3", "sync"}, opts: []string{"--delete"}},
				{tools: []string{"aws"}, words: []string{"*", "stop-*"}},
				{tools: []string{"gcloud"}, words: []string{"*", "*", "stop"}},
				{tools: []string{"mc"}, words: []string{"rb"}},
				{tools: []string{"mc"}, words: []string{"rm"}, opts: []string{"--recursive", "-r"}},
				{tools: []string{"rclone"}, words: []string{"purge"}},
				{tools: []string{"rclone"}, words: []string{"delete"}},
				{tools: []string{"rclone"}, words: []string{"deletefile"}},
				{tools: []string{"rclone"}, words: []string{"sync"}},
				{tools: []string{"azcopy"}, words: []string{"remove"}},
				{tools: []string{"gsutil"}, words: []string{"rb"}},
				{tools: []string{"az"}, words: []string{"*", "delete"}},
				{tools: []string{"az"}, words: []string{"*", "*", "delete"}},
				{tools: []string{"doctl", "flyctl", "fly"}, words: []string{"*", "destroy"}},
				{tools: []string{"doctl"}, words: []string{"*", "*", "delete"}},
				{tools: []string{"heroku"}, words: []string{"apps:destroy"}},
				{tools: []string{"heroku"}, words: []string{"pg:reset"}},
				{tools: []string{"docker", "podman"}, words: []string{"system", "prune"}},
				{tools: []string{"docker", "podman"}, words: []string{"volume", "prune"}},
				{tools: []string{"docker", "podman"}, words: []string{"volume", "rm"}},
				{tools: []string{"docker", "podman"}, words: []string{"container", "prune"}},
				{tools: []string{"docker", "podman"}, words: []string{"image", "prune"}, opts: []string{"-a", "--all"}},
				{tools: []string{"docker", "podman"}, words: []string{"rmi"}, opts: []string{"-f", "--force"}},
				{tools: []string{"docker", "podman"}, words: []string{"compose", "down"}, opts: []string{"-v", "--volumes"}},
				{tools: []string{"docker-compose"}, words: []string{"down"}, opts: []string{"-v", "--volumes"}},
			},
			[]string{"terraform destroy", "terraform apply -auto-approve", "terraform -chdir=infra destroy -auto-approve", "terraform state rm aws_instance.web", "tofu destroy",
				"pulumi destroy --yes", "kubectl delete namespace prod", "kubectl -n prod delete deploy/api", "kubectl --context prod delete ns app", "helm uninstall api",
				"aws s3 rm s3://bucket --recursive", "aws ec2 terminate-instances --instance-ids i-1", "aws rds delete-db-instance --db-instance-identifier x",
				"gcloud compute instances delete vm1", "az group delete -n rg", "docker system prune -af", "docker volume rm pgdata", "docker compose down -v",
				"npx cdk destroy --all --force", "kubectl scale deploy api --replicas=0", "kubectl delete ns prod --dry-run=none"},
			[]string{"terraform plan", "terraform apply", "kubectl get pods", "kubectl apply -f k8s/", "helm list", "aws s3 ls", "aws s3 cp x s3://b/x",
				"gcloud compute instances list", "docker ps", "docker compose down", "docker compose up -d", "pulumi preview"}),
		verbsRule("db.destroy", "dropping or wiping a database (dropdb, FLUSHALL, db:drop, migrate reset, flush)", "ask a person, after a backup", false,
			[]infraVerb{
				{tools: []string{"dropdb"}},
				{tools: []string{"mysqladmin"}, words: []string{"drop"}},
				{tools: []string{"mysqladmin"}, words: []string{"*", "drop"}},
				{tools: []string{"redis-cli"}, words: []string{"flushall"}},
				{tools: []string{"redis-cli"}, words: []string{"flushdb"}},
				{tools: []string{"redis-cli"}, words: []string{"shutdown"}},
				{tools: []string{"redis-cli"}, words: []string{"config", "set"}},
				{tools: []string{"rails", "rake"}, words: []string{"db:drop*"}},
				{tools: []string{"rails", "rake"}, words: []string{"db:reset"}},
				{tools: []string{"rails", "rake"}, words: []string{"db:schema:load"}},
				{tools: []string{"prisma"}, words: []string{"migrate", "reset"}},
				{tools: []string{"prisma"}, words: []string{"db", "push"}, opts: []string{"--force-reset", "--accept-data-loss"}},
				{tools: []string{"manage.py"}, words: []string{"flush"}},
				{tools: []string{"manage.py"}, words: []string{"reset_db"}},
				{tools: []string{"artisan"}, words: []string{"migrate:fresh"}},
				{tools: []string{"artisan"}, words: []string{"migrate:reset"}},
				{tools: []string{"artisan"}, words: []string{"db:wipe"}},
				{tools: []string{"sequelize", "sequelize-cli"}, words: []string{"db:drop"}},
				{tools: []string{"knex"}, words: []string{"migrate:rollback"}, opts: []string{"--all"}},
				{tools: []string{"mongorestore"}, opts: []string{"--drop"}},
				{tools: []string{"mongoimport"}, opts: []string{"--drop"}},
			},
			[]string{"dropdb app_production", "redis-cli FLUSHALL", "redis-cli -n 0 FLUSHDB", "rails db:drop", "bin/rails db:reset", "npx prisma migrate reset --force",
				"python manage.py flush --noinput", "php artisan migrate:fresh --force", "mysqladmin -f drop app", "mongorestore --drop dump/"},
			[]string{"rails db:migrate", "redis-cli GET x", "npx prisma migrate dev", "python manage.py migrate", "php artisan migrate", "createdb app"}),
		verbsRule("system.power", "shutting down or rebooting the machine, or killing every process of a user", "ask a person", false,
			[]infraVerb{
				{tools: []string{"shutdown", "reboot", "halt", "poweroff", "killall5"}},
				{tools: []string{"init", "telinit"}, words: []string{"0"}},
				{tools: []string{"init", "telinit"}, words: []string{"6"}},
				{tools: []string{"systemctl"}, words: []string{"poweroff"}},
				{tools: []string{"systemctl"}, words: []string{"reboot"}},
				{tools: []string{"systemctl"}, words: []string{"halt"}},
				{tools: []string{"pkill", "killall"}, opts: []string{"-u", "--user"}},
			},
			[]string{"shutdown -h now", "sudo reboot", "systemctl poweroff", "pkill -9 -u agent-test", "killall5 -9", "init 0"},
			[]string{"systemctl status nginx", "pkill -f 'node server.js'", "kill 1234", "uptime"}),
		verbsRule("disk.partition", "repartitioning, wiping or discarding a disk or volume", "ask a person", false,
			[]infraVerb{
				{tools: []string{"blkdiscard", "sgdisk", "pvremove", "vgremove", "lvremove", "dmsetup"}},
				{tools: []string{"fdisk", "sfdisk", "gdisk", "cfdisk"}, words: []string{"/dev/*"}},
				{tools: []string{"parted"}, words: []string{"/dev/*", "*"}},
				{tools: []string{"mdadm"}, opts: []string{"--zero-superblock", "--remove", "--fail", "--stop"}},
				{tools: []string{"cryptsetup"}, words: []string{"luksformat"}},
				{tools: []string{"cryptsetup"}, words: []string{"erase"}},
				{tools: []string{"cryptsetup"}, words: []string{"luksremovekey"}},
			},
			[]string{"blkdiscard /dev/nvme0n1", "fdisk /dev/sda", "parted /dev/sda mklabel gpt", "sgdisk --zap-all /dev/sda", "lvremove -f /dev/vg0/data", "mdadm --zero-superblock /dev/sdb", "cryptsetup luksFormat /dev/sdb"},
			[]string{"fdisk -l", "parted -l", "lsblk", "cryptsetup status x", "mdadm --detail /dev/md0"}),
		verbsRule("system.security", "switching off the machine's protections or access (firewall, SELinux, ssh, users, cron)", "ask a person", false,
			[]infraVerb{
				{tools: []string{"iptables", "ip6tables", "nft"}, opts: []string{"-F", "--flush", "-X", "flush"}},
				{tools: []string{"nft"}, words: []string{"flush"}},
				{tools: []string{"ufw"}, words: []string{"disable"}},
				{tools: []string{"ufw"}, words: []string{"reset"}},
				{tools: []string{"setenforce"}, words: []string{"0"}},
				{tools: []string{"systemctl", "service"}, words: []string{"stop", "ssh*"}},
				{tools: []string{"systemctl"}, words: []string{"disable", "ssh*"}},
				{tools: []string{"systemctl"}, words: []string{"mask", "ssh*"}},
				{tools: []string{"systemctl"}, words: []string{"stop", "firewalld"}},
				{tools: []string{"userdel", "deluser"}},
				{tools: []string{"passwd"}, opts: []string{"-d", "--delete", "-l", "--lock"}},
				{tools: []string{"crontab"}, opts: []string{"-r"}},
				{tools: []string{"crontab"}, words: []string{"*"}},
				{tools: []string{"swapoff"}},
				{tools: []string{"visudo", "chpasswd"}},
			},
			[]string{"iptables -F", "ufw disable", "setenforce 0", "systemctl stop sshd", "systemctl disable --now ssh", "userdel -r agent-test", "passwd -d root", "crontab -r", "swapoff -a", "echo '* * * * * x' | crontab -"},
			[]string{"iptables -L", "ufw status", "getenforce", "systemctl status sshd", "crontab -l", "passwd"}),
		verbsRule("release.publish", "publishing a release or package, which cannot be taken back", "ask a person to publish", true,
			[]infraVerb{
				{tools: []string{"npm", "yarn", "pnpm", "bun"}, words: []string{"publish"}},
				{tools: []string{"npm"}, words: []string{"unpublish"}},
				{tools: []string{"cargo"}, words: []string{"publish"}},
				{tools: []string{"cargo"}, words: []string{"yank"}},
				{tools: []string{"twine"}, words: []string{"upload"}},
				{tools: []string{"poetry", "flit", "hatch", "uv"}, words: []string{"publish"}},
				{tools: []string{"gem"}, words: []string{"push"}},
				{tools: []string{"gem"}, words: []string{"yank"}},
				{tools: []string{"docker", "podman"}, words: []string{"push"}},
				{tools: []string{"gh"}, words: []string{"release", "create"}},
				{tools: []string{"gh"}, words: []string{"release", "delete"}},
				{tools: []string{"gh"}, words: []string{"repo", "delete"}},
				{tools: []string{"mvn", "mvnw", "./mvnw"}, words: []string{"deploy"}},
				{tools: []string{"mvn", "mvnw", "./mvnw"}, words: []string{"release:perform"}},
				{tools: []string{"gradle", "gradlew", "./gradlew"}, words: []string{"publish*"}},
				{tools: []string{"lerna", "changeset"}, words: []string{"publish"}},
				{tools: []string{"semantic-release", "release-it", "np"}},
				{tools: []string{"dotnet"}, words: []string{"nuget", "push"}},
				{tools: []string{"vsce", "ovsx"}, words: []string{"publish"}},
				{tools: []string{"helm"}, words: []string{"push"}},
				{tools: []string{"docker", "podman"}, words: []string{"buildx", "build"}, opts: []string{"--push"}},
				{tools: []string{"pnpm", "yarn", "npm"}, words: []string{"publish"}},
				{tools: []string{"goreleaser"}, words: []string{"release"}},
			},
			[]string{"npm publish", "cargo publish", "twine upload dist/*", "gem push x.gem", "docker push registry.example.com/app:latest", "gh repo delete me/x --yes", "gh release create v1.0"},
			[]string{"npm pack", "cargo build", "twine check dist/*", "docker build .", "gh pr create", "npm install"}),
		verbsRule("secrets.cli", "printing credentials through a tool (tokens, secret values, raw kube config)", "ask a person for the value you need", false,
			[]infraVerb{
				{tools: []string{"gh"}, words: []string{"auth", "token"}},
				{tools: []string{"gh"}, words: []string{"auth", "status"}, opts: []string{"--show-token", "-t"}},
				{tools: []string{"gcloud"}, words: []string{"auth", "print-access-token"}},
				{tools: []string{"gcloud"}, words: []string{"auth", "print-identity-token"}},
				{tools: []string{"gcloud"}, words: []string{"auth", "application-default", "print-access-token"}},
				{tools: []string{"aws"}, words: []string{"configure", "get"}},
				{tools: []string{"aws"}, words: []string{"configure", "export-credentials"}},
				{tools: []string{"aws"}, words: []string{"secretsmanager", "get-secret-value"}},
				{tools: []string{"aws"}, words: []string{"ssm", "get-parameter*"}, opts: []string{"--with-decryption"}},
				{tools: []string{"aws"}, words: []string{"sts", "get-session-token"}},
				{tools: []string{"kubectl"}, words: []string{"config", "view"}, opts: []string{"--raw", "--flatten"}},
				{tools: []string{"kubectl"}, words: []string{"get", "secret*"}, opts: []string{"-o", "--output"}},
				{tools: []string{"npm"}, words: []string{"config", "get"}},
				{tools: []string{"npm"}, words: []string{"token", "list"}},
				{tools: []string{"git"}, words: []string{"credential", "fill"}},
				{tools: []string{"git"}, words: []string{"credential-store", "get"}},
				{tools: []string{"docker", "docker-compose"}, words: []string{"compose", "config"}},
				{tools: []string{"docker-compose"}, words: []string{"config"}},
				{tools: []string{"vault"}, words: []string{"kv", "get"}},
				{tools: []string{"vault"}, words: []string{"read"}},
				{tools: []string{"op"}, words: []string{"read"}},
				{tools: []string{"op"}, words: []string{"item", "get"}},
			},
			[]string{"gh auth token", "gcloud auth print-access-token", "aws configure get aws_secret_access_key", "kubectl config view --raw", "git credential fill",
				"aws secretsmanager get-secret-value --secret-id x", "kubectl get secret db -o yaml"},
			[]string{"gh auth status", "aws configure list", "kubectl config view", "kubectl get pods -o wide", "env", "printenv HOME", "env FOO=1 make"}),
	}
}
