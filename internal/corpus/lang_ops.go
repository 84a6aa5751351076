package corpus

import (
	"fmt"
	"hash/fnv"
	"strings"
)

func wordsNum(w []string, mod int) int {
	h := fnv.New32a()
	h.Write([]byte(strings.Join(w, "_")))
	return int(h.Sum32()%uint32(mod)) + 1
}

func opsFile(dir string, w []string) string {
	switch {
	case strings.HasSuffix(dir, "migrations"):
		return joinPath(dir, fmt.Sprintf("%04d_%s.sql", wordsNum(w, 180), snake(w...)))
	case strings.HasPrefix(dir, "sql"):
		return joinPath(dir, snake(w...)+".sql")
	case strings.HasPrefix(dir, "deploy"), strings.HasPrefix(dir, "etc"):
		return joinPath(dir, kebab(w...)+".yaml")
	case strings.HasPrefix(dir, "terraform"):
		return joinPath(dir, snake(w...)+".tf")
	case strings.HasPrefix(dir, "ansible"):
		return joinPath(dir, "tasks/"+snake(w...)+".yml")
	case dir == "systemd":
		return joinPath(dir, kebab(w...)+".service")
	case dir == "t":
		return joinPath(dir, fmt.Sprintf("%03d_%s.sql", wordsNum(w, 90), snake(w...)))
	case dir == "tests":
		return joinPath(dir, kebab(w...)+".bats")
	}
	return joinPath(dir, kebab(w...)+".sh")
}

func isPostgres(p *project) bool { return p.logs == "postgres" }

var _ = register(&lang{
	name: "ops", pkgKind: "directory",
	srcFile:  opsFile,
	testFile: opsFile,
	pkg:      func(p *project, dir string) string { return dir + "/" },
	fn:       snake,
	typ:      kebab,
	source:   opsSource,
	frame: func(g *gen, path, fn string, line int) string {
		return fmt.Sprintf("+ ./%s %s %s --%s=%d", path, fn, pick(g.r, g.p.tables), pick(g.r, g.p.nouns), g.r.intn(64))
	},
	crash: func(g *gen, head string, frames []string) string {
		script := pick(g.r, g.files)
		return fmt.Sprintf("%s\n%s: line %d: %s\n+ cleanup\n+ rm -f /tmp/%s.lock\n+ exit 1\n", strings.Join(frames, "\n"), script, 20+g.r.intn(200), head, stemOf(script))
	},
	compileErr: func(g *gen, path string, line int, msg string) string {
		if strings.HasSuffix(path, ".sql") {
			if isPostgres(g.p) {
				return fmt.Sprintf("psql:%s:%d: %s\n", path, line, msg)
			}
			return fmt.Sprintf("ERROR at line %d in file: '%s': %s\n", line, path, msg)
		}
		return fmt.Sprintf("In %s line %d:\n  rm -rf $%s/*\n         ^------^ SC%d (warning): %s\n\n", path, line, strings.ToUpper(g.varName()), 2000+g.r.intn(300), msg)
	},
	compileMsgs: []string{"Double quote to prevent globbing and word splitting (%s).", "Declare and assign separately to avoid masking return values (%s).",
		"%s is referenced but not assigned.", "Use \"${var:?}\" to ensure this never expands to /* (%s)."},
	build: func(g *gen) string {
		return pick(g.r, []string{"make lint", "shellcheck " + g.p.dirs[0] + "/*.sh", "yamllint -s " + pick(g.r, g.p.dirs)})
	},
	buildOK: func(g *gen) string {
		return fmt.Sprintf("shellcheck %s/*.sh\nyamllint -s deploy etc\nsqlfluff lint %s\nAll Finished!\n", g.p.dirs[0], pick(g.r, g.p.dirs))
	},
	benchValue: func(g *gen) string {
		if isPostgres(g.p) {
			return fmt.Sprintf("%d.%03d ms", 100+g.r.intn(9000), g.r.intn(1000))
		}
		return fmt.Sprintf("%d.%02d sec", 1+g.r.intn(90), g.r.intn(100))
	},
	bench: func(g *gen, v string) string {
		t := pick(g.r, g.p.tables)
		if isPostgres(g.p) {
			return fmt.Sprintf(`                                                              QUERY PLAN
-----------------------------------------------------------------------------------------------------------------------------------
 Gather  (cost=1000.00..%d.%02d rows=%d width=64) (actual time=0.%03d..%d.%03d rows=%d loops=1)
   Workers Planned: 2
   Workers Launched: 2
   ->  Parallel Seq Scan on %s  (cost=0.00..%d.00 rows=%d width=64) (actual time=0.%03d..%d.%03d rows=%d loops=3)
         Filter: ((status = 'open'::text) AND (created_at < (now() - '30 days'::interval)))
         Rows Removed by Filter: %d
 Planning Time: 0.%03d ms
 Execution Time: %s
(9 rows)
`, 20000+g.r.intn(90000), g.r.intn(100), 100+g.r.intn(5000), g.r.intn(1000), 100+g.r.intn(4000), g.r.intn(1000), 1000+g.r.intn(200000),
				t, 9000+g.r.intn(90000), 100+g.r.intn(5000), g.r.intn(1000), 100+g.r.intn(4000), g.r.intn(1000), 1000+g.r.intn(90000), 10000+g.r.intn(900000), g.r.intn(1000), v)
		}
		return fmt.Sprintf(`+----+-------------+-------+------------+------+---------------+------+---------+------+--------+----------+-------------+
| id | select_type | table | partitions | type | possible_keys | key  | key_len | ref  | rows   | filtered | Extra       |
+----+-------------+-------+------------+------+---------------+------+---------+------+--------+----------+-------------+
|  1 | SIMPLE      | %-5s | NULL       | ALL  | NULL          | NULL | NULL    | NULL | %6d |    10.00 | Using where |
+----+-------------+-------+------------+------+---------------+------+---------+------+--------+----------+-------------+
1 row in set, 1 warning (%s)
`, t[:min(5, len(t))], 10000+g.r.intn(900000), v)
	},
})

func opsSource(g *gen, path string, n int) string {
	var b strings.Builder
	lines := 0
	switch {
	case strings.HasSuffix(path, ".sql"):
		for lines < n {
			t := pick(g.r, g.p.tables)
			switch g.r.intn(3) {
			case 0:
				fmt.Fprintf(&b, "CREATE TABLE IF NOT EXISTS %s_%s (\n    id bigserial PRIMARY KEY,\n    %s_id bigint NOT NULL REFERENCES %s(id),\n    status text NOT NULL DEFAULT 'open',\n    created_at timestamptz NOT NULL DEFAULT now()\n);\n\n", t, pick(g.r, g.p.nouns), pick(g.r, g.p.nouns), t)
				lines += 7
			case 1:
				fmt.Fprintf(&b, "CREATE INDEX %s_%s_idx ON %s (%s_id, created_at);\n-- %s before %s\n\n", t, pick(g.r, g.p.nouns), t, pick(g.r, g.p.nouns), pick(g.r, g.p.verbs), pick(g.r, g.p.verbs))
				lines += 3
			default:
				fmt.Fprintf(&b, "UPDATE %s SET status = 'closed'\n WHERE created_at < now() - interval '%d days'\n   AND status = 'open';\n\n", t, 1+g.r.intn(90))
				lines += 4
			}
		}
	case strings.HasSuffix(path, ".yaml"), strings.HasSuffix(path, ".yml"):
		fmt.Fprintf(&b, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: %s\n  labels:\n    app: %s\nspec:\n  replicas: %d\n  template:\n    spec:\n      containers:\n", stemOf(path), g.p.name, 1+g.r.intn(6))
		lines = 11
		for lines < n {
			fmt.Fprintf(&b, "        - name: %s\n          image: registry.internal/%s:%d.%d.%d\n          resources:\n            limits: {cpu: %dm, memory: %dMi}\n          env:\n            - name: %s\n              value: \"%d\"\n", kebab(g.nounWords()...), g.p.name, g.r.intn(4), g.r.intn(30), g.r.intn(10), 100*(1+g.r.intn(20)), 128*(1+g.r.intn(16)), strings.ToUpper(g.varName()), g.r.intn(1000))
			lines += 7
		}
	case strings.HasSuffix(path, ".tf"):
		for lines < n {
			fmt.Fprintf(&b, "resource \"aws_db_instance\" \"%s\" {\n  identifier        = \"%s-%s\"\n  instance_class    = \"db.r6g.%s\"\n  allocated_storage = %d\n  multi_az          = %v\n}\n\n", g.varName(), g.p.name, kebab(g.nounWords()...), pick(g.r, []string{"large", "xlarge", "2xlarge"}), 100*(1+g.r.intn(20)), g.r.chance(0.5))
			lines += 7
		}
	case strings.HasSuffix(path, ".bats"):
		fmt.Fprintf(&b, "#!/usr/bin/env bats\n\nload helpers\n\n")
		lines = 4
		for lines < n {
			fmt.Fprintf(&b, "@test \"%s: %s %s\" {\n  run %s --%s %d\n  [ \"$status\" -eq 0 ]\n  [[ \"$output\" == *\"%s\"* ]]\n}\n\n", stemOf(pick(g.r, g.files)), pick(g.r, g.p.verbs), pick(g.r, g.p.nouns), pick(g.r, g.files), pick(g.r, g.p.nouns), g.r.intn(10), pick(g.r, g.p.verbs))
			lines += 7
		}
	default:
		fmt.Fprintf(&b, "#!/usr/bin/env bash\n# %s: %s the %s.\nset -euo pipefail\n\nsource \"$(dirname \"$0\")/lib/common.sh\"\n\n", lastDir(path), pick(g.r, g.p.verbs), pick(g.r, g.p.nouns))
		lines = 6
		for lines < n {
			fn := g.fnName()
			fmt.Fprintf(&b, "%s() {\n  local %s=\"$1\"\n", fn, g.varName())
			lines += 2
			for s := 0; s < 2+g.r.intn(6); s++ {
				switch g.r.intn(3) {
				case 0:
					fmt.Fprintf(&b, "  log \"%s %s ${1}\"\n", pick(g.r, g.p.verbs), pick(g.r, g.p.nouns))
				case 1:
					fmt.Fprintf(&b, "  if ! %s; then\n    die \"%s\"\n  fi\n", pick(g.r, []string{"mysqladmin ping -h \"$DB_HOST\"", "kubectl -n data get pod \"$POD\"", "pg_isready -h \"$PGHOST\"", "aws s3 ls \"s3://$BUCKET/\""}), g.routineError())
					lines += 2
				default:
					fmt.Fprintf(&b, "  %s=$((%s + %d))\n", strings.ToUpper(g.varName()), strings.ToUpper(g.varName()), 1+g.r.intn(9))
				}
				lines++
			}
			b.WriteString("}\n\n")
			lines += 2
		}
	}
	return b.String()
}
