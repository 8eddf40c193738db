// Runs the generated queries of rdf/sparql's differential test
// (gendiff_jena_test.go) in Apache Jena's ARQ, all in this one process:
// java -cp JENA-JARS GenDiffJena.java LIST
//
// LIST has one line per case, four fields separated by tabs: the dataset
// (N-Triples), the query file, the output file and the query's form
// (SELECT, ASK or CONSTRUCT). Each dataset is read once, into a model of
// its own. SELECT and ASK write SPARQL 1.1 JSON results to the output
// file, CONSTRUCT writes N-Triples; an error is written to the output
// file's name with ".err" added. Each query has a minute.
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.jena.query.Query;
import org.apache.jena.query.QueryExecution;
import org.apache.jena.query.QueryFactory;
import org.apache.jena.query.ResultSetFormatter;
import org.apache.jena.query.Syntax;
import org.apache.jena.rdf.model.Model;
import org.apache.jena.riot.Lang;
import org.apache.jena.riot.RDFDataMgr;

public class GenDiffJena {
    public static void main(String[] args) throws Exception {
        Map<String, Model> models = new HashMap<>();
        for (String line : Files.readAllLines(Paths.get(args[0]))) {
            String[] f = line.split("\t");
            try {
                Model model = models.get(f[0]);
                if (model == null) {
                    model = RDFDataMgr.loadModel(f[0], Lang.NTRIPLES);
                    models.put(f[0], model);
                }
                Query query = QueryFactory.create(Files.readString(Paths.get(f[1])), Syntax.syntaxSPARQL_11);
                try (QueryExecution qe = QueryExecution.model(model).query(query).timeout(1, TimeUnit.MINUTES).build();
                        OutputStream out = new FileOutputStream(f[2])) {
                    switch (f[3]) {
                        case "SELECT":
                            ResultSetFormatter.outputAsJSON(out, qe.execSelect());
                            break;
                        case "ASK":
                            ResultSetFormatter.outputAsJSON(out, qe.execAsk());
                            break;
                        default:
                            RDFDataMgr.write(out, qe.execConstruct(), Lang.NTRIPLES);
                    }
                }
            } catch (Exception e) {
                Files.deleteIfExists(Paths.get(f[2]));
                Files.writeString(Paths.get(f[2] + ".err"), String.valueOf(e));
            }
        }
    }
}
