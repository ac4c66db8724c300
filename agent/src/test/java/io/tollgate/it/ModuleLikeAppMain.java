package io.tollgate.it;

import java.io.File;

/**
 * Runs a test app's main class inside a {@link ModuleLikeClassLoader}: {@code ModuleLikeAppMain
 * APP.jar MAIN-CLASS}, as an application server runs its deployments.
 */
public final class ModuleLikeAppMain {

  private ModuleLikeAppMain() {}

  public static void main(String[] args) throws Exception {
    ClassLoader module = new ModuleLikeClassLoader(new File(args[0]));
    Thread.currentThread().setContextClassLoader(module);
    Class.forName(args[1], true, module).getMethod("main", String[].class)
        .invoke(null, (Object) new String[0]);
  }
}
